#pragma once
// What the first cost model needs of one SpMM configuration on one matrix: bytes moved and the
// work of every warp its launches create.
#include "kernels/kernel_family.h"
#include "kernels/spmm/spmm_config.h"
#include "workload/workload.h"

namespace ktune {

// The matrix kernels' warps, block after block (heavy_light: the light rows' launch, then the
// heavy chunks'); bytes of every launch, the zeroing included.
// What it derives from the matrix alone (its gathers, ASpT's tiling, heavy_light's split) is
// kept in the workload's cache.
WorkEstimate estimate_spmm(const Workload& w, const SpmmConfig& config, int32_t k, Dtype dtype);

}  // namespace ktune
