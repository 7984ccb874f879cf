#pragma once
// The vendor baseline of a contraction: transpose-transpose-GEMM-transpose with cuBLAS
// (gpu/cublas_ttgt_call.cpp), what a user without ktune runs. The output indices A holds form
// the GEMM's rows (in A's order), those B holds its columns (in B's order), the summed indices
// its k (in A's order); an operand already stored as that matrix, either way round, is passed
// to cuBLAS as it is, and the others are permuted first.
#include <vector>

#include "kernels/contraction/contraction_spec.h"
#include "kernels/vendor_call.h"

namespace ktune {

// cuBLAS's cublasGemmEx and cublasLt's first heuristic candidate, each inside the same reshaping.
std::vector<VendorCall> contraction_vendor_calls(const ContractionSpec& s);

}  // namespace ktune
