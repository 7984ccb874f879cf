#pragma once
// The first cost model of a GEMM configuration, shaped by Stream-K's grid-size model
// (digest-004 §4.3): a CTA's time is a + b [it writes partials] + c · its MAC iterations
// + d · (peers it adds up - 1), in warp work units: a and b a tile's stores per thread, c one
// iteration's loads and FMAs (or mma fragments) per thread, d a partial tile's loads per thread.
// The grid's makespan then follows from the per-warp work.
#include "kernels/gemm/gemm_config.h"
#include "kernels/kernel_family.h"

namespace ktune {

WorkEstimate estimate_gemm(const GemmShape& s, const GemmConfig& c, const Precision& p);

// The Stream-K grid the model prefers for this tile, in [4, 4 * kGemmSms] by 4.
int64_t preferred_sk_grid(const GemmShape& s, const GemmConfig& c, const Precision& p);

}  // namespace ktune
