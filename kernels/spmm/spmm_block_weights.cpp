#include "kernels/spmm/spmm_block_weights.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <variant>

namespace ktune {

namespace {

constexpr int64_t kWarpSize = 32;

// The int32 entries of a plan buffer, read in place (row_ptr of a large matrix is tens of MB).
struct IntView {
  const std::byte* data = nullptr;
  int64_t size = 0;
  int64_t operator[](int64_t i) const {
    int32_t v;
    std::memcpy(&v, data + static_cast<size_t>(i) * sizeof(int32_t), sizeof v);
    return v;
  }
};

IntView int_buffer(const LaunchPlan& plan, const std::string& name) {
  const DeviceBuffer* b = plan.buffer(name);
  if (!b) return {};
  return {b->bytes.data(), static_cast<int64_t>(b->bytes.size() / sizeof(int32_t))};
}

int64_t scalar(const KernelArg& arg) {
  return std::visit([](auto v) { return static_cast<int64_t>(v); }, arg.scalar);
}

// Weights of `groups` groups over an x grid of `blocks_x` blocks, as many a warp as the fewest
// powers of two up to 32 that cover them: a warp weighs 1 + its heaviest group's `length`.
std::vector<double> warp_weights(int64_t groups, int64_t blocks_x, int64_t warps_per_block,
                                 const std::function<int64_t(int64_t)>& length) {
  int64_t per_warp = 1;
  while (per_warp < kWarpSize && blocks_x * warps_per_block * per_warp < groups) per_warp *= 2;
  std::vector<double> weights(static_cast<size_t>(blocks_x), 0.0);
  for (int64_t w = 0; w < blocks_x * warps_per_block; ++w) {
    const int64_t first = std::min(groups, w * per_warp), last = std::min(groups, first + per_warp);
    if (first == last) break;
    int64_t longest = 0;
    for (int64_t g = first; g < last; ++g) longest = std::max(longest, length(g));
    weights[static_cast<size_t>(w / warps_per_block)] += static_cast<double>(1 + longest);
  }
  return weights;
}

// The weights of the blocks along x (every K tile alike).
std::optional<std::vector<double>> weights_along_x(const LaunchPlan& plan, const LaunchStep& step) {
  const int64_t blocks_x = step.grid.x;
  const int64_t warps_per_block = std::max<int64_t>(1, (int64_t{step.block.x} + kWarpSize - 1) / kWarpSize);
  if (step.entry == "spmm_zero_rows") return std::vector<double>(static_cast<size_t>(blocks_x), 1.0);
  const IntView row_ptr = int_buffer(plan, "row_ptr");
  if (row_ptr.size < 1 || step.args.empty()) return std::nullopt;
  const int64_t rows = row_ptr.size - 1;
  auto row_length = [&](int64_t r) { return row_ptr[r + 1] - row_ptr[r]; };
  if (step.entry == "spmm_row_split") return warp_weights(rows, blocks_x, warps_per_block, row_length);
  if (step.entry == "spmm_aspt") {  // and every warp stages each tile of its panel
    const IntView tile_ptr = int_buffer(plan, "tile_ptr");
    if (tile_ptr.size != blocks_x + 1) return std::nullopt;
    std::vector<double> weights = warp_weights(rows, blocks_x, warps_per_block, row_length);
    for (int64_t b = 0; b < blocks_x; ++b)
      weights[static_cast<size_t>(b)] += static_cast<double>((tile_ptr[b + 1] - tile_ptr[b]) * warps_per_block);
    return weights;
  }
  if (step.entry == "spmm_nonzero_split" && step.args.size() > 2) {
    // A block walks its groups' segments of `items` (the fewest powers of two a block that
    // cover the path with this grid), the last block what remains.
    const int64_t path = rows + row_ptr[rows], items = std::max<int64_t>(1, scalar(step.args[2]));
    int64_t groups_per_block = 1;
    while (blocks_x * groups_per_block * items < path) groups_per_block *= 2;
    const int64_t tile = groups_per_block * items;
    std::vector<double> weights(static_cast<size_t>(blocks_x));
    for (int64_t b = 0; b < blocks_x; ++b)
      weights[static_cast<size_t>(b)] = static_cast<double>(std::clamp<int64_t>(path - b * tile, 0, tile));
    return weights;
  }
  const int64_t count = scalar(step.args[0]);
  if (step.entry == "spmm_light_rows") {
    const IntView light = int_buffer(plan, "light_rows");
    if (light.size < count) return std::nullopt;
    return warp_weights(count, blocks_x, warps_per_block, [&](int64_t g) { return row_length(light[g]); });
  }
  if (step.entry == "spmm_heavy_chunks" && step.args.size() > 1) {
    const IntView chunks = int_buffer(plan, "heavy_chunks");
    const int64_t chunk = scalar(step.args[1]);
    if (chunks.size < 2 * count) return std::nullopt;
    return warp_weights(count, blocks_x, warps_per_block, [&](int64_t g) {
      const int64_t first = chunks[2 * g + 1];
      return std::min(first + chunk, row_ptr[chunks[2 * g] + 1]) - first;
    });
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<double>> spmm_block_weights(const LaunchPlan& plan, const LaunchStep& step) {
  if (step.grid.x < 1) return std::nullopt;
  const std::optional<std::vector<double>> x = weights_along_x(plan, step);
  if (!x) return std::nullopt;
  std::vector<double> weights;
  const uint32_t tiles = step.grid.y * step.grid.z;
  weights.reserve(x->size() * tiles);
  for (uint32_t t = 0; t < tiles; ++t) weights.insert(weights.end(), x->begin(), x->end());
  return weights;
}

}  // namespace ktune
