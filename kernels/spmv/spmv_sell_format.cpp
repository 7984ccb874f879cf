#include "kernels/spmv/spmv_sell_format.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "workload/input_error.h"

namespace ktune {

namespace {

// The longest row of slice s.
int64_t slice_width(const CsrF64& a, int64_t s) {
  const int64_t first = s * kSellSliceRows;
  const int64_t last = std::min<int64_t>(first + kSellSliceRows, a.rows);
  int64_t width = 0;
  for (int64_t r = first; r < last; ++r) width = std::max<int64_t>(width, a.row_length(static_cast<int32_t>(r)));
  return width;
}

}  // namespace

SellShape sell_shape(const CsrF64& a) {
  SellShape shape;
  shape.slices = (int64_t{a.rows} + kSellSliceRows - 1) / kSellSliceRows;
  for (int64_t s = 0; s < shape.slices; ++s) {
    const int64_t width = slice_width(a, s);
    shape.stored += kSellSliceRows * width;
    shape.in_rows += std::min<int64_t>(kSellSliceRows, a.rows - s * kSellSliceRows) * width;
  }
  return shape;
}

std::string sell_refusal(const CsrF64& a, const SellShape& shape) {
  const double limit = kSellMaxPaddedPerNonzero * static_cast<double>(std::max<int64_t>(a.nnz(), 1));
  if (static_cast<double>(shape.in_rows) > limit) {
    char per_nonzero[16];
    std::snprintf(per_nonzero, sizeof per_nonzero, "%g", kSellMaxPaddedPerNonzero);
    return "schedule sell refused: its slices of 32 rows pad this matrix's rows to " + std::to_string(shape.in_rows) +
           " entries, more than " + per_nonzero + " per nonzero (" +
           std::to_string(a.nnz()) + " nonzeros): the row lengths vary too much within slices";
  }
  if (shape.stored > std::numeric_limits<int32_t>::max()) {
    return "schedule sell refused: " + std::to_string(shape.stored) + " stored entries exceed int32 offsets";
  }
  return "";
}

SellMatrix sell_matrix(const CsrF64& a) {
  const SellShape shape = sell_shape(a);
  if (const std::string why = sell_refusal(a, shape); !why.empty()) throw InputError(why);
  SellMatrix s;
  s.rows = a.rows;
  s.slice_ptr.resize(static_cast<size_t>(shape.slices) + 1, 0);
  for (int64_t slice = 0; slice < shape.slices; ++slice)
    s.slice_ptr[slice + 1] = s.slice_ptr[slice] + static_cast<int32_t>(kSellSliceRows * slice_width(a, slice));
  s.col_idx.assign(static_cast<size_t>(shape.stored), -1);
  s.values.assign(static_cast<size_t>(shape.stored), 0.0);
  for (int32_t r = 0; r < a.rows; ++r) {
    const int64_t slice = r / kSellSliceRows, lane = r % kSellSliceRows;
    for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
      const size_t at = static_cast<size_t>(s.slice_ptr[slice] + kSellSliceRows * (i - a.row_ptr[r]) + lane);
      s.col_idx[at] = a.col_idx[i];
      s.values[at] = a.values[i];
    }
  }
  return s;
}

std::vector<double> sell_multiply(const SellMatrix& s, const std::vector<double>& x) {
  std::vector<double> y(static_cast<size_t>(s.rows), 0.0);
  for (int32_t r = 0; r < s.rows; ++r) {
    const int64_t slice = r / kSellSliceRows, lane = r % kSellSliceRows;
    for (int64_t i = s.slice_ptr[slice] + lane; i < s.slice_ptr[slice + 1]; i += kSellSliceRows)
      if (s.col_idx[i] >= 0) y[r] += s.values[i] * x[static_cast<size_t>(s.col_idx[i])];
  }
  return y;
}

}  // namespace ktune
