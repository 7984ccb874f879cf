#pragma once
// The CPU twin of the SDDMM kernels: (A·Bᵀ) sampled at S's pattern, in double precision.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// A is s.rows x k and B is s.cols x k, row-major (their values exact in float,
// sddmm_dense_input.h). The result has one value per stored entry of s, in its CSR order:
// c[i] = sum_k A[row(i), k] * B[col_idx[i], k], summed in double. S's values are not used.
std::vector<double> sddmm_reference(const CsrF64& s, const std::vector<float>& a, const std::vector<float>& b,
                                    int32_t k);

}  // namespace ktune
