#pragma once
// The CPU twin of the SpMM kernels: C = A·B in double precision.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// b holds a.cols x k values, row-major; the result a.rows x k, row-major.
std::vector<double> spmm_reference(const CsrF64& a, const std::vector<double>& b, int32_t k);

// The listed rows of C alone, one after another (rows.size() x k values), B being the
// deterministic input matrix (kernels/input_vector.h) read element by element: for a C, and a
// B, too large to hold in doubles.
std::vector<double> spmm_reference_rows(const CsrF64& a, int32_t k, const std::vector<int32_t>& rows);

}  // namespace ktune
