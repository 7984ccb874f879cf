#include "kernels/spmv/spmv_sell_format.h"

#include <gtest/gtest.h>

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
  const std::string why = sell_refusal(skewed, sell_shape(skewed));
  EXPECT_NE(why.find("schedule sell refused"), std::string::npos) << why;
  EXPECT_THROW(sell_matrix(skewed), InputError);
  lengths[3] = 5;  // 32 x 5 + 32 x 4 = 288 entries for 257 nonzeros: taken
  const CsrF64 even = rows_of_lengths(lengths, 100);
  EXPECT_EQ(sell_refusal(even, sell_shape(even)), "");
  EXPECT_NO_THROW(sell_matrix(even));
  // An empty matrix, and one row: nothing to pad in its rows.
  EXPECT_EQ(sell_refusal(rows_of_lengths({}, 4), sell_shape(rows_of_lengths({}, 4))), "");
  EXPECT_EQ(sell_refusal(rows_of_lengths({7}, 9), sell_shape(rows_of_lengths({7}, 9))), "");
}

}  // namespace
}  // namespace ktune
