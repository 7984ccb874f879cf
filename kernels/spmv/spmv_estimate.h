#pragma once
// What the first cost model needs of one SpMV configuration on one matrix: bytes moved and the
// work of every warp the launch creates.
#include "kernels/kernel_family.h"
#include "kernels/spmv/spmv_config.h"

namespace ktune {

WorkEstimate estimate_spmv(const CsrF64& a, const SpmvConfig& config, Dtype dtype);

// The compulsory traffic: row_ptr, col_idx and values once, x once, y once.
double spmv_min_bytes(const CsrF64& a, Dtype dtype);

}  // namespace ktune
