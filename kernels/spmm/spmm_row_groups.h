#pragma once
// The host side of the schedules that add into rows of C atomically: which rows they add into
// (zeroed by the plan's first launch, spmm_zero_rows) and, for heavy_light, which rows are heavy
// and how they are cut.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// Where diagonal `diag` of the merge path over rows + nonzeros crosses it: the row ends before it
// (the row in progress there), as spmm_nonzero_split.cu's search finds it; the nonzeros before it
// are diag less that.
int64_t merge_path_row(const CsrF64& a, int64_t diag);

// nonzero_split: the row in progress where each segment of `items` merge items (rows + nonzeros)
// begins, found as spmm_nonzero_split.cu finds it; each once, ascending, none past the last row.
// A segment adds into the row it begins in and into the one it ends in, which the next segment
// begins in.
std::vector<int32_t> segment_start_rows(const CsrF64& a, int64_t items);

// heavy_light's rows (RS-SpMM's light/heavy split): rows of at most `threshold` nonzeros are
// light, the others heavy and cut into chunks of `threshold` nonzeros (the last one shorter).
struct HeavyLightRows {
  std::vector<int32_t> light;   // ascending
  std::vector<int32_t> heavy;   // ascending
  std::vector<int32_t> chunks;  // {row, first nonzero} of each chunk, in row order
  int64_t chunk_count() const { return static_cast<int64_t>(chunks.size() / 2); }
};

HeavyLightRows heavy_light_rows(const CsrF64& a, int32_t threshold);

}  // namespace ktune
