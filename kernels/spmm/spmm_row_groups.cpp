#include "kernels/spmm/spmm_row_groups.h"

#include <algorithm>

namespace ktune {

int64_t merge_path_row(const CsrF64& a, int64_t diag) {
  // The first row whose end does not come before nonzero diag - row - 1 of the path.
  int64_t lo = std::max<int64_t>(diag - a.nnz(), 0), hi = std::min<int64_t>(diag, a.rows);
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (a.row_ptr[static_cast<size_t>(mid) + 1] <= diag - mid - 1) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

std::vector<int32_t> segment_start_rows(const CsrF64& a, int64_t items) {
  std::vector<int32_t> out;
  for (int64_t diag = 0; diag < a.rows + a.nnz(); diag += items) {
    const int64_t row = merge_path_row(a, diag);
    if (row < a.rows && (out.empty() || out.back() != row)) out.push_back(static_cast<int32_t>(row));
  }
  return out;
}

HeavyLightRows heavy_light_rows(const CsrF64& a, int32_t threshold) {
  HeavyLightRows out;
  for (int32_t r = 0; r < a.rows; ++r) {
    if (a.row_length(r) <= threshold) {
      out.light.push_back(r);
      continue;
    }
    out.heavy.push_back(r);
    for (int32_t first = a.row_ptr[r]; first < a.row_ptr[r + 1]; first += threshold) {
      out.chunks.push_back(r);
      out.chunks.push_back(first);
    }
  }
  return out;
}

}  // namespace ktune
