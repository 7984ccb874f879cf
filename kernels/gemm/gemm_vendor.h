#pragma once
// The vendor baselines of a GEMM: cuBLAS's cublasGemmEx with its default algorithm and
// cublasLt's heuristic's first candidates, timed by the same harness. cuBLAS is column-major;
// a row-major C = A·B is the column-major C^T = B^T·A^T, so cuBLAS's first operand is our B:
//   cuBLAS m, n = our n, m; its op(first) = B stored transposed ? T : N, ld = B "t" ? k : n;
//   its op(second) = A "t" ? T : N, ld = A "t" ? m : k; ldc = n; batches strided.
#include <vector>

#include "kernels/gemm/gemm_shape.h"
#include "kernels/vendor_call.h"

namespace ktune {

// cublasLt candidates timed: its heuristic's first few (the first is what cuBLAS itself picks).
constexpr int kGemmLtCandidates = 4;

// The arguments every cuBLAS call takes: the column-major problem above and the buffers
// "first", "second", "c" (our b, a, c).
nlohmann::json cublas_gemm_args(const GemmShape& s);
std::vector<VendorCall> gemm_vendor_calls(const GemmShape& s);

}  // namespace ktune
