#pragma once
// The wgmma instruction of one warpgroup tile width, as the CUDA the wgmma kernel calls
// (gemm_wgmma.cu's kt_wgmma): m64nNk16 (k8 for tf32) names its N / 2 accumulators one by one, so the
// instruction is written out for the configuration's N rather than kept in the template.
#include <cstdint>
#include <string>

#include "kernels/precision.h"

namespace ktune {

// kt_wgmma(d, descriptor_a, descriptor_b): d += A·B over 32 bytes of k (16 bf16 or f16, 8 tf32),
// both operands k-major in shared memory; `input` is bf16, f16 or tf32, n a multiple of 8 from 8
// to 256.
std::string wgmma_call_source(int64_t n, Dtype input);

}  // namespace ktune
