#pragma once
// The CPU twin of the SpMV kernels: y = A·x in double precision.
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// x must have a.cols entries; the result has a.rows.
std::vector<double> spmv_reference(const CsrF64& a, const std::vector<double>& x);

}  // namespace ktune
