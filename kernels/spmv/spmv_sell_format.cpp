#include "kernels/spmv/spmv_sell_format.h"

#include <algorithm>
#include <cstdlib>
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

std::string too_far_for_offsets(int64_t reach) {
  return "schedule sell16 refused: an entry lies " + std::to_string(reach) + " columns from its row, past the " +
         std::to_string(kSellMaxOffset) + " a 16-bit offset reaches";
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
  // A row's columns are sorted: its first and last entries lie farthest from it.
  for (int32_t r = 0; r < a.rows; ++r) {
    if (a.row_length(r) == 0) continue;
    const int64_t first = a.col_idx[a.row_ptr[r]], last = a.col_idx[a.row_ptr[r + 1] - 1];
    shape.reach = std::max({shape.reach, std::abs(first - r), std::abs(last - r)});
  }
  return shape;
}

std::string sell_refusal(const CsrF64& a, const SellShape& shape, SellIndex index) {
  const std::string schedule = index == SellIndex::Column ? "sell" : "sell16";
  const double limit = kSellMaxPaddedPerNonzero * static_cast<double>(std::max<int64_t>(a.nnz(), 1));
  if (static_cast<double>(shape.in_rows) > limit) {
    char per_nonzero[16];
    std::snprintf(per_nonzero, sizeof per_nonzero, "%g", kSellMaxPaddedPerNonzero);
    return "schedule " + schedule + " refused: its slices of 32 rows pad this matrix's rows to " + std::to_string(shape.in_rows) +
           " entries, more than " + per_nonzero + " per nonzero (" +
           std::to_string(a.nnz()) + " nonzeros): the row lengths vary too much within slices";
  }
  if (shape.stored > std::numeric_limits<int32_t>::max()) {
    return "schedule " + schedule + " refused: " + std::to_string(shape.stored) +
           " stored entries exceed int32 offsets";
  }
  if (index == SellIndex::Offset16 && shape.reach > kSellMaxOffset) {
    return too_far_for_offsets(shape.reach);
  }
  return "";
}

SellMatrix sell_matrix(const CsrF64& a) {
  const SellShape shape = sell_shape(a);
  if (const std::string why = sell_refusal(a, shape, SellIndex::Column); !why.empty()) throw InputError(why);
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

namespace {

// each(row, i) for every stored entry i of the matrix's rows: row r is lane r % 32 of slice r / 32.
template <typename ForEachEntry>
void for_each_stored(const SellMatrix& s, ForEachEntry each) {
  for (int32_t r = 0; r < s.rows; ++r) {
    const int64_t slice = r / kSellSliceRows, lane = r % kSellSliceRows;
    for (int64_t i = s.slice_ptr[slice] + lane; i < s.slice_ptr[slice + 1]; i += kSellSliceRows) each(r, static_cast<size_t>(i));
  }
}

// What the kernel does with each entry: padding (column -1) adds nothing.
template <typename ColumnOf>
std::vector<double> multiply(const SellMatrix& s, const std::vector<double>& x, ColumnOf column_of) {
  std::vector<double> y(static_cast<size_t>(s.rows), 0.0);
  for_each_stored(s, [&](int32_t r, size_t i) {
    const int32_t col = column_of(r, i);
    if (col >= 0) y[r] += s.values[i] * x[static_cast<size_t>(col)];
  });
  return y;
}

}  // namespace

std::vector<int16_t> sell_offsets(const SellMatrix& s) {
  std::vector<int16_t> offsets(s.col_idx.size(), kSellOffsetPadding);
  // Lanes past the last row hold padding only; for_each_stored does not visit them.
  for_each_stored(s, [&](int32_t r, size_t i) {
    if (s.col_idx[i] < 0) return;
    const int64_t offset = int64_t{s.col_idx[i]} - r;
    if (std::abs(offset) > kSellMaxOffset) {
      throw InputError(too_far_for_offsets(std::abs(offset)));
    }
    offsets[i] = static_cast<int16_t>(offset);
  });
  return offsets;
}

std::vector<double> sell_multiply(const SellMatrix& s, const std::vector<double>& x) {
  return multiply(s, x, [&](int32_t, size_t i) { return s.col_idx[i]; });
}

std::vector<double> sell_multiply(const SellMatrix& s, const std::vector<int16_t>& offsets,
                                  const std::vector<double>& x) {
  return multiply(s, x, [&](int32_t r, size_t i) { return sell_offset_column(offsets[i], r); });
}

}  // namespace ktune
