#include "kernels/spmv/spmv_estimate.h"

#include <algorithm>

#include "kernels/spmv/spmv_adaptive_partition.h"
#include "kernels/spmv/spmv_atomic_rows.h"
#include "kernels/spmv/spmv_hot_columns.h"
#include "kernels/spmv/spmv_sell_format.h"

namespace ktune {

namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kSectorBytes = 32;  // the unit in which a gather moves x

// The gather cost of x: for each group of nonzeros [starts[g], starts[g + 1]) that one warp
// gathers, the distinct 32-byte sectors of x it touches, summed over groups. A sector two warps
// share counts twice; whether L2 catches that reuse is the model's business, not this count's.
double gathered_x_bytes(const CsrF64& a, const std::vector<int64_t>& starts, size_t value_bytes) {
  const int64_t per_sector = kSectorBytes / static_cast<int64_t>(value_bytes);
  std::vector<int64_t> last_group((a.cols + per_sector - 1) / per_sector, -1);
  int64_t sectors = 0;
  for (size_t g = 0; g + 1 < starts.size(); ++g) {
    for (int64_t i = starts[g]; i < starts[g + 1]; ++i) {
      int64_t& last = last_group[a.col_idx[i] / per_sector];
      if (last != static_cast<int64_t>(g)) {
        last = static_cast<int64_t>(g);
        ++sectors;
      }
    }
  }
  return static_cast<double>(sectors * kSectorBytes);
}

// Row, subwarp and sell schedules: warp w holds rows [w * r, (w + 1) * r) with r = 32 / lanes,
// and its slowest lane loops ceil(length / lanes) times over the longest of them (for sell, the
// width of its slice).
void estimate_row_warps(const CsrF64& a, const SpmvConfig& config, int64_t warps, WorkEstimate& e,
                        std::vector<int64_t>& group_starts) {
  const int64_t rows_per_warp = kWarpSize / config.lanes;
  for (int64_t w = 0; w < warps; ++w) {
    const int64_t first = std::min<int64_t>(w * rows_per_warp, a.rows);
    const int64_t last = std::min<int64_t>(first + rows_per_warp, a.rows);
    int64_t longest = 0;
    for (int64_t r = first; r < last; ++r) longest = std::max<int64_t>(longest, a.row_length(r));
    e.warp_work.push_back(static_cast<double>((longest + config.lanes - 1) / config.lanes));
    if (first < last) group_starts.push_back(a.row_ptr[first]);
  }
  group_starts.push_back(a.nnz());
}

// Merge schedule: lane l of a block's warp w takes the items from (32 w + l) * items_per_thread
// of its tile, so lane 0 is the slowest and every full warp does exactly items_per_thread.
// Its x gathers happen while staging the tile, 32 consecutive nonzeros per warp instruction.
void estimate_merge_warps(const CsrF64& a, const SpmvConfig& config, WorkEstimate& e,
                          std::vector<int64_t>& group_starts) {
  const int64_t path = a.rows + a.nnz();
  for (int64_t b = 0; b < e.blocks; ++b) {
    const int64_t tile =
        std::min(config.tile_items(), std::max<int64_t>(path - b * config.tile_items(), 0));
    for (int64_t w = 0; w < config.block / kWarpSize; ++w) {
      const int64_t lane0_items = tile - w * kWarpSize * config.items_per_thread;
      e.warp_work.push_back(
          static_cast<double>(std::clamp<int64_t>(lane0_items, 0, config.items_per_thread)));
    }
  }
  for (int64_t i = 0; i < a.nnz(); i += kWarpSize) group_starts.push_back(i);
  group_starts.push_back(a.nnz());
}

// Adaptive schedule, block by block as spmv_adaptive.cu runs it. Warp w's lane 0 takes items
// 32 w, 32 w + block, ... of the block's nonzeros (staged, or summed directly for one row), so
// each block's gathers go 32 consecutive nonzeros per warp instruction. A block of several rows
// then reduces them from shared memory, `width` threads a row, block / width rows a pass.
void estimate_adaptive_warps(const CsrF64& a, const SpmvConfig& config,
                             const AdaptivePartition& partition, WorkEstimate& e,
                             std::vector<int64_t>& group_starts) {
  const int64_t warps_per_block = config.block / kWarpSize;
  for (int64_t b = 0; b < partition.blocks(); ++b) {
    const RowBlock block = partition.block(b);
    const int64_t nnz = block.end_nz - block.first_nz;
    const int64_t rows = block.end_row - block.first_row;
    const bool reduces_rows = !block.slice && rows > 1;
    const int64_t width = adaptive_row_width(rows, config.block);
    const int64_t rows_per_pass = config.block / width;
    for (int64_t w = 0; w < warps_per_block; ++w) {
      const int64_t from_lane0 = std::max<int64_t>(nnz - w * kWarpSize, 0);
      double work = static_cast<double>((from_lane0 + config.block - 1) / config.block);
      for (int64_t pass = 0; reduces_rows && pass < rows; pass += rows_per_pass) {
        const int64_t first = std::min(rows, pass + w * kWarpSize / width);
        const int64_t last = std::min(rows, first + kWarpSize / width);
        int64_t longest = 0;
        for (int64_t r = block.first_row + first; r < block.first_row + last; ++r) {
          longest = std::max<int64_t>(longest, a.row_length(static_cast<int32_t>(r)));
        }
        work += static_cast<double>((longest + width - 1) / width);
      }
      e.warp_work.push_back(work);
    }
    for (int64_t i = block.first_nz; i < block.end_nz; i += kWarpSize) group_starts.push_back(i);
  }
  group_starts.push_back(a.nnz());
}

}  // namespace

WorkEstimate estimate_spmv(const CsrF64& a, const SpmvConfig& config, Dtype dtype) {
  WorkEstimate e;
  e.threads_per_block = config.block;
  e.launches = 1;
  std::vector<int64_t> group_starts;
  double row_block_bytes = 0;
  // The rows a kernel adds into are zeroed by a launch before it (their list read, the rows
  // written), spmv_atomic_rows.h.
  double atomic_rows = 0;
  if (config.is_adaptive()) {
    const AdaptivePartition partition = adaptive_partition(a, config.tile_items());
    e.blocks = partition.blocks();
    estimate_adaptive_warps(a, config, partition, e, group_starts);
    row_block_bytes = static_cast<double>(partition.row_blocks.size() * sizeof(int32_t));
    atomic_rows = static_cast<double>(adaptive_atomic_rows(partition).size());
    // adaptive_hot first gathers the hot columns' x (the list read, x_hot written); its own
    // gathers of them then hit x_hot in L1, which this byte count does not tell apart.
    if (config.schedule == SpmvSchedule::AdaptiveHot) {
      e.launches = 2;
      row_block_bytes += static_cast<double>(hot_column_count(a, kHotColumns)) * (4 + dtype_size(dtype));
    }
  } else if (config.schedule == SpmvSchedule::Merge) {
    e.blocks = config.blocks(a.rows, a.nnz());
    estimate_merge_warps(a, config, e, group_starts);
    atomic_rows = static_cast<double>(merge_atomic_rows(a, config.tile_items()).size());
  } else {
    e.blocks = config.blocks(a.rows, a.nnz());
    estimate_row_warps(a, config, e.blocks * config.block / kWarpSize, e, group_starts);
  }
  const double value_bytes = static_cast<double>(dtype_size(dtype));
  const double rows = a.rows;
  // The matrix as the schedule stores it: CSR's row pointers and nonzeros, or SELL-32's slice
  // offsets and entries, padding included (a refused form is estimated all the same: slow).
  double pointers = rows + 1, entries = static_cast<double>(a.nnz());
  double index_bytes = 4;
  if (config.is_sell()) {
    const SellShape shape = sell_shape(a);
    pointers = static_cast<double>(shape.slices + 1);
    entries = static_cast<double>(shape.stored);
    if (config.sell_index() == SellIndex::Offset16) index_bytes = 2;
  }
  e.dram_bytes = pointers * 4 + entries * (index_bytes + value_bytes) +
                 gathered_x_bytes(a, group_starts, dtype_size(dtype)) +
                 rows * value_bytes + row_block_bytes + atomic_rows * (4 + value_bytes);
  if (atomic_rows > 0) ++e.launches;
  return e;
}

double spmv_min_bytes(const CsrF64& a, Dtype dtype) {
  const double value_bytes = static_cast<double>(dtype_size(dtype));
  return (a.rows + 1.0) * 4 + static_cast<double>(a.nnz()) * (4 + value_bytes) +
         (static_cast<double>(a.cols) + a.rows) * value_bytes;
}

}  // namespace ktune
