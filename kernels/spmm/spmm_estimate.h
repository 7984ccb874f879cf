#pragma once
// What the first cost model needs of one SpMM configuration on one matrix: bytes moved and the
// work of every warp its launches create.
#include "kernels/kernel_family.h"
#include "kernels/spmm/spmm_config.h"

namespace ktune {

// The matrix kernels' warps, block after block (heavy_light: the light rows' launch, then the
// heavy chunks'); bytes of every launch, the zeroing included.
WorkEstimate estimate_spmm(const CsrF64& a, const SpmmConfig& config, int32_t k, Dtype dtype);

}  // namespace ktune
