#include "kernels/sddmm/sddmm_block_weights.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
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
    std::memcpy(&v, data + static_cast<size_t>(i) * sizeof v, sizeof v);
    return v;
  }
};

IntView int_buffer(const LaunchPlan& plan, const std::string& name) {
  const DeviceBuffer* b = plan.buffer(name);
  if (!b) return {};
  return {b->bytes.data(), static_cast<int64_t>(b->bytes.size() / sizeof(int32_t))};
}

// The power of two p with ceil(work / p) == blocks: the work a block of the launch covers.
int64_t work_per_block(int64_t work, int64_t blocks) {
  int64_t p = 1;
  while (p * blocks < work) p *= 2;
  return p;
}

std::vector<double> nonzero_weights(int64_t nnz, int64_t blocks) {
  const int64_t per_block = work_per_block(nnz, blocks);
  std::vector<double> weights(static_cast<size_t>(blocks));
  for (int64_t b = 0; b < blocks; ++b)
    weights[static_cast<size_t>(b)] = static_cast<double>(std::clamp<int64_t>(nnz - b * per_block, 0, per_block));
  return weights;
}

std::optional<std::vector<double>> row_weights(const IntView& row_ptr, const IntView& tile_ptr, int64_t threads,
                                               int64_t blocks) {
  const int64_t rows = row_ptr.size - 1;
  const int64_t rows_per_block = work_per_block(rows, blocks);
  const int64_t warps_per_block = std::max<int64_t>(1, threads / kWarpSize);
  const int64_t rows_per_warp = std::max<int64_t>(1, rows_per_block / warps_per_block);
  if (tile_ptr.data && tile_ptr.size != blocks + 1) return std::nullopt;
  std::vector<double> weights(static_cast<size_t>(blocks), 0.0);
  for (int64_t b = 0; b < blocks; ++b) {
    double& weight = weights[static_cast<size_t>(b)];
    const int64_t end = std::min(rows, (b + 1) * rows_per_block);
    for (int64_t first = b * rows_per_block; first < end; first += rows_per_warp) {
      int64_t longest = 0;
      for (int64_t r = first; r < std::min(end, first + rows_per_warp); ++r)
        longest = std::max(longest, row_ptr[r + 1] - row_ptr[r]);
      weight += static_cast<double>(1 + longest);
    }
    if (tile_ptr.data) weight += static_cast<double>((tile_ptr[b + 1] - tile_ptr[b]) * warps_per_block);
  }
  return weights;
}

}  // namespace

std::optional<std::vector<double>> sddmm_block_weights(const LaunchPlan& plan, const LaunchStep& step) {
  const int64_t blocks = int64_t{step.grid.x} * step.grid.y * step.grid.z;
  const int64_t threads = int64_t{step.block.x} * step.block.y * step.block.z;
  if (blocks < 1 || step.args.empty() || !std::holds_alternative<int32_t>(step.args[0].scalar)) return std::nullopt;
  const int64_t count = std::get<int32_t>(step.args[0].scalar);  // nonzeros or rows, as the kernel takes
  if (step.entry == "sddmm_nonzero") return nonzero_weights(count, blocks);
  if (step.entry != "sddmm_row" && step.entry != "sddmm_tiled") return std::nullopt;
  const IntView row_ptr = int_buffer(plan, "row_ptr");
  if (row_ptr.size != count + 1) return std::nullopt;
  const IntView tile_ptr = step.entry == "sddmm_tiled" ? int_buffer(plan, "tile_ptr") : IntView{};
  if (step.entry == "sddmm_tiled" && !tile_ptr.data) return std::nullopt;
  return row_weights(row_ptr, tile_ptr, threads, blocks);
}

}  // namespace ktune
