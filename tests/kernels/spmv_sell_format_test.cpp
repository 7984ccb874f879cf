#include "kernels/spmv/spmv_sell_format.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/input_vector.h"
#include "kernels/spmv/spmv_reference.h"
#include "random_csr.h"
#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// Rows of the given lengths, row r's k-th entry in column k + r, value 10 r + k + 1.
CsrF64 rows_of_lengths(const std::vector<int32_t>& lengths, int32_t cols) {
  CsrF64 a;
  a.rows = static_cast<int32_t>(lengths.size());
  a.cols = cols;
  a.row_ptr.push_back(0);
  for (int32_t r = 0; r < a.rows; ++r) {
    for (int32_t k = 0; k < lengths[r]; ++k) {
      a.col_idx.push_back(k + r);
      a.values.push_back(10.0 * r + k + 1);
    }
    a.row_ptr.push_back(static_cast<int32_t>(a.col_idx.size()));
  }
  return a;
}

// Five rows (2, 3, 0, 3 and 3 entries): one slice of width 3, column by column, the rest padding.
TEST(SellFormat, StoresEachSliceColumnByColumn) {
  const SellMatrix s = sell_matrix(rows_of_lengths({2, 3, 0, 3, 3}, 8));
  EXPECT_EQ(s.rows, 5);
  EXPECT_EQ(s.slice_ptr, (std::vector<int32_t>{0, 96}));
  ASSERT_EQ(s.col_idx.size(), 96u);
  ASSERT_EQ(s.values.size(), 96u);
  auto at = [](int k, int lane) { return static_cast<size_t>(32 * k + lane); };
  EXPECT_EQ(s.col_idx[at(0, 0)], 0);
  EXPECT_EQ(s.col_idx[at(1, 0)], 1);
  EXPECT_EQ(s.values[at(1, 0)], 2.0);
  EXPECT_EQ(s.col_idx[at(2, 0)], -1);  // row 0 is shorter than its slice
  EXPECT_EQ(s.col_idx[at(2, 1)], 3);
  EXPECT_EQ(s.values[at(2, 1)], 13.0);
  EXPECT_EQ(s.col_idx[at(0, 2)], -1);  // row 2 is empty
  EXPECT_EQ(s.col_idx[at(0, 5)], -1);  // no row 5
  int padding = 0;
  for (size_t i = 0; i < s.col_idx.size(); ++i) {
    if (s.col_idx[i] < 0) {
      ++padding;
      EXPECT_EQ(s.values[i], 0.0);
    }
  }
  EXPECT_EQ(padding, 96 - 11);
}

TEST(SellFormat, ShapeCountsSlicesStoredEntriesAndThoseOfTheRows) {
  // 40 rows: slice 0 holds rows 0..31 (longest 3), slice 1 rows 32..39 (longest 2).
  std::vector<int32_t> lengths(40, 2);
  lengths[5] = 3;
  const SellShape shape = sell_shape(rows_of_lengths(lengths, 50));
  EXPECT_EQ(shape.slices, 2);
  EXPECT_EQ(shape.stored, 32 * 3 + 32 * 2);
  EXPECT_EQ(shape.in_rows, 32 * 3 + 8 * 2);
  const SellMatrix s = sell_matrix(rows_of_lengths(lengths, 50));
  EXPECT_EQ(s.slice_ptr, (std::vector<int32_t>{0, 96, 160}));
}

// The CPU twin of the kernel's walk gives the CSR reference, over several slices and a last one
// that is partly past the matrix.
TEST(SellFormat, MultiplyMatchesTheCsrReference) {
  for (const CsrF64& a : {generate_stencil_2d(13), generate_banded(200, 3, 5), generate_stencil_3d(5)}) {
    const std::vector<double> x = deterministic_input_vector(a.cols);
    const std::vector<double> want = spmv_reference(a, x);
    const std::vector<double> got = sell_multiply(sell_matrix(a), x);
    ASSERT_EQ(got.size(), want.size());
    for (size_t r = 0; r < want.size(); ++r) EXPECT_NEAR(got[r], want[r], 1e-12 * (1 + std::abs(want[r]))) << r;
  }
}

// One long row among short ones pads its slice: past 1.5 stored entries per nonzero, refused.
TEST(SellFormat, RefusesAMatrixWhoseSlicesPadTooMuch) {
  std::vector<int32_t> lengths(64, 4);
  lengths[3] = 40;  // slice 0: 32 x 40 = 1280 entries in its rows for 164 nonzeros
  const CsrF64 skewed = rows_of_lengths(lengths, 100);
  const std::string why = sell_refusal(skewed, sell_shape(skewed), SellIndex::Column);
  EXPECT_NE(why.find("schedule sell refused"), std::string::npos) << why;
  EXPECT_THROW(sell_matrix(skewed), InputError);
  lengths[3] = 5;  // 32 x 5 + 32 x 4 = 288 entries for 257 nonzeros: taken
  const CsrF64 even = rows_of_lengths(lengths, 100);
  EXPECT_EQ(sell_refusal(even, sell_shape(even), SellIndex::Column), "");
  EXPECT_NO_THROW(sell_matrix(even));
  // An empty matrix, and one row: nothing to pad in its rows.
  EXPECT_EQ(sell_refusal(rows_of_lengths({}, 4), sell_shape(rows_of_lengths({}, 4)), SellIndex::Column), "");
  EXPECT_EQ(sell_refusal(rows_of_lengths({7}, 9), sell_shape(rows_of_lengths({7}, 9)), SellIndex::Column), "");
}

// Row r's entries at r - below and r + above (where the columns reach): the reach is the
// farther of the two.
CsrF64 two_diagonals(int32_t rows, int32_t cols, int32_t below, int32_t above) {
  CsrF64 a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.push_back(0);
  for (int32_t r = 0; r < rows; ++r) {
    for (int32_t c : {r - below, r + above}) {
      if (c < 0 || c >= cols) continue;
      a.col_idx.push_back(c);
      a.values.push_back(1.0 + r);
    }
    a.row_ptr.push_back(static_cast<int32_t>(a.col_idx.size()));
  }
  return a;
}

TEST(SellFormat, ShapeMeasuresHowFarEntriesLieFromTheirRows) {
  EXPECT_EQ(sell_shape(two_diagonals(40, 40, 3, 7)).reach, 7);
  EXPECT_EQ(sell_shape(two_diagonals(40, 40, 9, 2)).reach, 9);
  EXPECT_EQ(sell_shape(generate_stencil_2d(20)).reach, 20);
  EXPECT_EQ(sell_shape(rows_of_lengths({}, 4)).reach, 0);
}

// Offsets from the row give back every column, padding stays padding, and the multiply over them
// is the CSR reference.
TEST(SellFormat, OffsetsDecodeToTheColumnsAndMultiplyLikeCsr) {
  for (const CsrF64& a : {generate_stencil_2d(13), generate_banded(200, 3, 5), two_diagonals(33000, 33000, 32767, 0)}) {
    const SellMatrix s = sell_matrix(a);
    const std::vector<int16_t> offsets = sell_offsets(s);
    ASSERT_EQ(offsets.size(), s.col_idx.size());
    for (size_t i = 0; i < offsets.size(); ++i) {
      const int32_t slice = static_cast<int32_t>(std::upper_bound(s.slice_ptr.begin(), s.slice_ptr.end(), i) - s.slice_ptr.begin()) - 1;
      const int32_t row = 32 * slice + static_cast<int32_t>((i - s.slice_ptr[slice]) % 32);
      EXPECT_EQ(sell_offset_column(offsets[i], row), s.col_idx[i]) << i;
    }
    const std::vector<double> x = deterministic_input_vector(a.cols);
    const std::vector<double> want = spmv_reference(a, x);
    const std::vector<double> got = sell_multiply(s, offsets, x);
    ASSERT_EQ(got.size(), want.size());
    for (size_t r = 0; r < want.size(); ++r) EXPECT_NEAR(got[r], want[r], 1e-12 * (1 + std::abs(want[r]))) << r;
  }
}

// An entry 32768 columns from its row is past what 16 bits hold: sell16 is refused, sell is not.
TEST(SellFormat, RefusesOffsetsPastSixteenBits) {
  const CsrF64 far = two_diagonals(64, 40000, 0, 32768);
  const std::string why = sell_refusal(far, sell_shape(far), SellIndex::Offset16);
  EXPECT_NE(why.find("schedule sell16 refused"), std::string::npos) << why;
  EXPECT_NE(why.find("32768"), std::string::npos) << why;
  EXPECT_EQ(sell_refusal(far, sell_shape(far), SellIndex::Column), "");
  EXPECT_THROW(sell_offsets(sell_matrix(far)), InputError);
  const CsrF64 near = two_diagonals(64, 40000, 0, 32767);
  EXPECT_EQ(sell_refusal(near, sell_shape(near), SellIndex::Offset16), "");
  EXPECT_NO_THROW(sell_offsets(sell_matrix(near)));
}

}  // namespace
}  // namespace ktune
