#include "kernels/spmm/spmm_reference.h"

#include <stdexcept>
#include <string>

#include "kernels/input_vector.h"

namespace ktune {

std::vector<double> spmm_reference(const CsrF64& a, const std::vector<double>& b, int32_t k) {
  const size_t width = static_cast<size_t>(k);
  if (b.size() != static_cast<size_t>(a.cols) * width) {
    throw std::invalid_argument("spmm_reference: b has " + std::to_string(b.size()) + " entries for " +
                                std::to_string(a.cols) + " rows of " + std::to_string(k));
  }
  std::vector<double> c(static_cast<size_t>(a.rows) * width, 0.0);
  for (int32_t r = 0; r < a.rows; ++r) {
    double* c_row = c.data() + static_cast<size_t>(r) * width;
    for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
      const double value = a.values[i];
      const double* b_row = b.data() + static_cast<size_t>(a.col_idx[i]) * width;
      for (size_t j = 0; j < width; ++j) c_row[j] += value * b_row[j];
    }
  }
  return c;
}

std::vector<double> spmm_reference_rows(const CsrF64& a, int32_t k, const std::vector<int32_t>& rows) {
  const size_t width = static_cast<size_t>(k);
  std::vector<double> c(rows.size() * width, 0.0);
  for (size_t n = 0; n < rows.size(); ++n) {
    const int32_t r = rows[n];
    double* c_row = c.data() + n * width;
    for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
      const double value = a.values[i];
      const size_t b_row = static_cast<size_t>(a.col_idx[i]) * width;
      for (size_t j = 0; j < width; ++j) c_row[j] += value * deterministic_input_value(b_row + j);
    }
  }
  return c;
}

}  // namespace ktune
