#include "kernels/spmv/spmv_block_weights.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <variant>

#include "kernels/spmv/spmv_adaptive_partition.h"

namespace ktune {
namespace {

// The int32 entries of a plan buffer, read in place: row_ptr of a large matrix is tens of MB,
// and only one entry per block boundary is read.
struct IntView {
  const std::byte* data = nullptr;
  size_t size = 0;
  bool empty() const { return size == 0; }
  int64_t operator[](int64_t i) const {
    int32_t v;
    std::memcpy(&v, data + static_cast<size_t>(i) * sizeof(int32_t), sizeof v);
    return v;
  }
  int64_t back() const { return (*this)[static_cast<int64_t>(size) - 1]; }
};

// The buffer named `name`, when the step passes it (empty otherwise).
IntView int_buffer(const LaunchPlan& plan, const LaunchStep& step, const std::string& name) {
  const bool passed = std::any_of(step.args.begin(), step.args.end(), [&](const KernelArg& a) { return a.buffer == name; });
  if (!passed) return {};
  for (const DeviceBuffer& b : plan.buffers)
    if (b.name == name) return {b.bytes.data(), b.bytes.size() / sizeof(int32_t)};
  return {};
}

bool passes_scalar(const LaunchStep& step, int64_t value) {
  for (const KernelArg& a : step.args) {
    if (!a.buffer.empty()) continue;
    const bool equal = std::visit([value](auto v) { return static_cast<double>(v) == static_cast<double>(value); }, a.scalar);
    if (equal) return true;
  }
  return false;
}

// SELL-32: warp w walks slice w, one step per stored column of it (its width).
std::optional<std::vector<double>> sell_block_weights(const IntView& slice_ptr, const LaunchStep& step, int64_t blocks) {
  const int64_t slices = static_cast<int64_t>(slice_ptr.size) - 1;
  const int64_t threads = int64_t{step.block.x} * step.block.y * step.block.z;
  const int64_t warps_per_block = std::max<int64_t>(1, (threads + 31) / 32);
  std::vector<double> weights(static_cast<size_t>(blocks), 0.0);
  for (int64_t b = 0; b < blocks; ++b) {
    for (int64_t w = b * warps_per_block; w < std::min(slices, (b + 1) * warps_per_block); ++w)
      weights[static_cast<size_t>(b)] += static_cast<double>(1 + (slice_ptr[w + 1] - slice_ptr[w]) / 32);
  }
  return weights;
}

}  // namespace

std::optional<std::vector<double>> spmv_block_weights(const LaunchPlan& plan, const LaunchStep& step) {
  const int64_t blocks = int64_t{step.grid.x} * step.grid.y * step.grid.z;
  if (blocks < 1) return std::nullopt;
  if (const IntView slice_ptr = int_buffer(plan, step, "slice_ptr"); slice_ptr.size >= 1)
    return sell_block_weights(slice_ptr, step, blocks);
  const IntView row_ptr = int_buffer(plan, step, "row_ptr");
  if (row_ptr.size < 2) return std::nullopt;
  const int64_t rows = static_cast<int64_t>(row_ptr.size) - 1;
  const int64_t nnz = row_ptr.back();
  std::vector<double> weights(static_cast<size_t>(blocks), 0.0);

  const IntView row_blocks = int_buffer(plan, step, "row_blocks");
  if (!row_blocks.empty()) {
    if (static_cast<int64_t>(row_blocks.size) != 2 * (blocks + 1)) return std::nullopt;
    auto row = [&](int64_t b) { const int64_t r = row_blocks[2 * b]; return r < 0 ? ~r : r; };
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t covered_nz = row_blocks[2 * b + 3] - row_blocks[2 * b + 1];
      // A slice covers part of one row: it still reads and adds into that row once.
      weights[static_cast<size_t>(b)] = static_cast<double>(std::max<int64_t>(row(b + 1) - row(b), 1) + covered_nz);
    }
    return weights;
  }

  if (nnz != rows && passes_scalar(step, nnz)) {
    const int64_t path = rows + nnz;
    const int64_t tile = (path + blocks - 1) / blocks;
    for (int64_t b = 0; b < blocks; ++b)
      weights[static_cast<size_t>(b)] = static_cast<double>(std::clamp<int64_t>(path - b * tile, 0, tile));
    return weights;
  }

  // A warp runs as long as its slowest lane: with r rows a warp (a power of two, the fewest
  // that cover the rows with this grid), 32 / r lanes share a row and the warp loops over its
  // longest row. Summing nonzeros instead would make a block of many medium rows (run in
  // parallel) look as slow as one hub row (run serially). O(rows).
  const int64_t threads = int64_t{step.block.x} * step.block.y * step.block.z;
  const int64_t warps_per_block = std::max<int64_t>(1, (threads + 31) / 32);
  int64_t rows_per_warp = 1;
  while (rows_per_warp < 32 && blocks * warps_per_block * rows_per_warp < rows) rows_per_warp *= 2;
  const int64_t lanes_per_row = 32 / rows_per_warp;
  int lanes_shift = 0;  // lanes_per_row is a power of two: shift, not divide, in this O(rows) loop
  while ((int64_t{1} << lanes_shift) < lanes_per_row) ++lanes_shift;
  for (int64_t b = 0; b < blocks; ++b) {
    int64_t work = 0;
    for (int64_t w = b * warps_per_block; w < (b + 1) * warps_per_block; ++w) {
      const int64_t first = std::min(rows, w * rows_per_warp);
      const int64_t last = std::min(rows, first + rows_per_warp);
      if (first == last) break;  // so are the block's later warps
      int64_t longest = 0, begin = row_ptr[first];
      for (int64_t r = first; r < last; ++r) {
        const int64_t end = row_ptr[r + 1];
        longest = std::max(longest, end - begin);
        begin = end;
      }
      work += 1 + ((longest + lanes_per_row - 1) >> lanes_shift);  // + the row's own step
    }
    weights[static_cast<size_t>(b)] = static_cast<double>(work);
  }
  return weights;
}

std::optional<std::vector<double>> spmv_block_spans(const LaunchPlan& plan, const LaunchStep& step) {
  const int64_t blocks = int64_t{step.grid.x} * step.grid.y * step.grid.z;
  const IntView row_blocks = int_buffer(plan, step, "row_blocks");
  const IntView row_ptr = int_buffer(plan, step, "row_ptr");
  if (blocks < 1 || row_blocks.empty() || row_ptr.size < 2) return std::nullopt;
  if (static_cast<int64_t>(row_blocks.size) != 2 * (blocks + 1)) return std::nullopt;
  const int64_t rows = static_cast<int64_t>(row_ptr.size) - 1;
  const int64_t threads = std::max<int64_t>(1, int64_t{step.block.x} * step.block.y * step.block.z);
  auto row = [&](int64_t b) { const int64_t r = row_blocks[2 * b]; return r < 0 ? ~r : r; };
  std::vector<double> spans(static_cast<size_t>(blocks), 0.0);
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t first = row(b), last = row(b + 1);
    const int64_t nonzeros = row_blocks[2 * b + 3] - row_blocks[2 * b + 1];
    if (first < 0 || last > rows || last < first || nonzeros < 0) return std::nullopt;
    double span = static_cast<double>((nonzeros + threads - 1) / threads);
    if (row_blocks[2 * b] >= 0 && last - first > 1) {  // whole rows: then the reduction passes
      const int64_t width = adaptive_row_width(last - first, threads);
      const int64_t per_pass = threads / width;
      int64_t begin = row_ptr[first];  // each row pointer read once: this is O(rows) per candidate
      for (int64_t pass = first; pass < last; pass += per_pass) {
        int64_t longest = 0;
        for (int64_t r = pass; r < std::min(last, pass + per_pass); ++r) {
          const int64_t end = row_ptr[r + 1];
          longest = std::max(longest, end - begin);
          begin = end;
        }
        span += static_cast<double>(1 + (longest + width - 1) / width);
      }
    }
    spans[static_cast<size_t>(b)] = span;
  }
  return spans;
}

}  // namespace ktune
