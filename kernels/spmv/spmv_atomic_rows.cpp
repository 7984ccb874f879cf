#include "kernels/spmv/spmv_atomic_rows.h"

#include <algorithm>

namespace ktune {

std::vector<int32_t> adaptive_atomic_rows(const AdaptivePartition& partition) {
  std::vector<int32_t> rows;
  for (int64_t b = 0; b < partition.blocks(); ++b) {
    const RowBlock block = partition.block(b);
    if (block.slice && (rows.empty() || rows.back() != block.first_row)) rows.push_back(block.first_row);
  }
  return rows;
}

std::vector<int32_t> merge_atomic_rows(const CsrF64& a, int64_t tile_items) {
  const int64_t rows = a.rows, nnz = a.nnz();
  std::vector<int32_t> out;
  for (int64_t diag = 0; diag < rows + nnz; diag += tile_items) {
    // The first row whose end does not come before nonzero diag - row - 1 of the path, as
    // warp_merge_path_search decides it: row ends before it are consumed at this diagonal.
    int64_t lo = std::max<int64_t>(diag - nnz, 0), hi = std::min<int64_t>(diag, rows);
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (a.row_ptr[static_cast<size_t>(mid) + 1] <= diag - mid - 1) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo < rows && (out.empty() || out.back() != lo)) out.push_back(static_cast<int32_t>(lo));
  }
  return out;
}

}  // namespace ktune
