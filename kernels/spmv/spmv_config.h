#pragma once
// The SpMV parameter space and one configuration of it in typed form.
#include <cstdint>
#include <string>

#include "kernels/parameter_space.h"
#include "kernels/spmv/spmv_sell_format.h"
#include "workload/csr_matrix.h"

namespace ktune {

// In the order of the "schedule" choices.
enum class SpmvSchedule { Row, Subwarp, Merge, Adaptive, Sell, Sell16, AdaptiveHot };

// schedule ∈ {row, subwarp, merge, adaptive, sell, sell16, adaptive_hot}, block (threads per
// block), lanes (threads per row), items_per_thread (merge and adaptive items per thread). Sell
// and sell16 run on the SELL-32 form of the matrix (spmv_sell_format.h; sell16 with 16-bit column
// offsets), adaptive_hot on CSR with its hot columns renamed (spmv_hot_columns.h), the others on
// CSR as it is. Parameters a schedule does not use are pinned to one value, so that no two
// configurations compile to the same kernel.
ParameterSpace spmv_space();

struct SpmvConfig {
  SpmvSchedule schedule = SpmvSchedule::Row;
  int32_t block = 256;
  int32_t lanes = 1;
  int32_t items_per_thread = 1;

  // Validates against spmv_space(); throws InputError naming the refused parameter.
  static SpmvConfig from(const Config& config);

  std::string schedule_name() const;
  // Sell and sell16: the SELL-32 form, with 32-bit columns or 16-bit offsets.
  bool is_sell() const { return schedule == SpmvSchedule::Sell || schedule == SpmvSchedule::Sell16; }
  SellIndex sell_index() const { return schedule == SpmvSchedule::Sell16 ? SellIndex::Offset16 : SellIndex::Column; }
  // Adaptive and adaptive_hot: one kernel over row blocks cut on the host (adaptive_partition).
  bool is_adaptive() const { return schedule == SpmvSchedule::Adaptive || schedule == SpmvSchedule::AdaptiveHot; }
  // Rows one block covers (row, subwarp and sell schedules).
  int32_t rows_per_block() const { return block / lanes; }
  // Items one block stages: merge-path items (row ends + nonzeros) for merge, nonzeros for
  // adaptive.
  int64_t tile_items() const { return int64_t{block} * items_per_thread; }
  // Blocks of the launch on a matrix of this shape (at least one, even for an empty matrix).
  // Not for the adaptive schedules, whose grid follows from the row lengths (adaptive_partition).
  int64_t blocks(int32_t rows, int64_t nnz) const;
};

}  // namespace ktune
