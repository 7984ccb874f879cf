#include "kernels/spmv/spmv_reference.h"

#include <stdexcept>

namespace ktune {

std::vector<double> spmv_reference(const CsrF64& a, const std::vector<double>& x) {
  if (x.size() != static_cast<size_t>(a.cols)) {
    throw std::invalid_argument("spmv_reference: x has " + std::to_string(x.size()) +
                                " entries for a matrix of " + std::to_string(a.cols) + " columns");
  }
  std::vector<double> y(static_cast<size_t>(a.rows), 0.0);
  for (int32_t r = 0; r < a.rows; ++r) {
    double sum = 0;
    for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) sum += a.values[i] * x[a.col_idx[i]];
    y[r] = sum;
  }
  return y;
}

}  // namespace ktune
