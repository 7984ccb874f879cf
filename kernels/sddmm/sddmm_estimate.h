#pragma once
// What the first cost model needs of one SDDMM configuration on one matrix: bytes moved and the
// work of every warp the launch creates.
#include "kernels/kernel_family.h"
#include "kernels/sddmm/sddmm_config.h"

namespace ktune {

WorkEstimate estimate_sddmm(const CsrF64& s, const SddmmConfig& config, int32_t k, Dtype dtype);

// The compulsory traffic: S's structure (row_ptr, col_idx) once, A once, B once, C once.
double sddmm_min_bytes(const CsrF64& s, int32_t k, Dtype dtype);

}  // namespace ktune
