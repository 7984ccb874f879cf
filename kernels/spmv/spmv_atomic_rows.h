#pragma once
// The rows of y that a schedule adds into with atomicAdd, which spmv_zero_rows (its first
// launch) zeroes: every other row the matrix kernel stores once, whatever y held before.
#include <cstdint>
#include <vector>

#include "kernels/spmv/spmv_adaptive_partition.h"
#include "workload/csr_matrix.h"

namespace ktune {

// The rows cut into slices (each once, ascending); none when no row is.
std::vector<int32_t> adaptive_atomic_rows(const AdaptivePartition& partition);

// Merge path over rows + nonzeros in tiles of `tile_items`: the row in progress where each tile
// begins, found as the kernel finds it; each once, ascending, and none past the last row.
// spmv_merge.cu adds into it with atomicAdd: the block before may hold part of it, and the
// tile's first row to end gets its sum that way, the first tile's too.
std::vector<int32_t> merge_atomic_rows(const CsrF64& a, int64_t tile_items);

}  // namespace ktune
