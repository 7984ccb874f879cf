#pragma once
// The CPU twin of the SpMM kernels: C = A·B in double precision.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// b holds a.cols x k values, row-major; the result a.rows x k, row-major.
std::vector<double> spmm_reference(const CsrF64& a, const std::vector<double>& b, int32_t k);

}  // namespace ktune
