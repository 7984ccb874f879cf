#include "kernels/spmv/spmv_hot_columns.h"

#include <gtest/gtest.h>

#include <map>

#include "random_csr.h"

namespace ktune {
namespace {

using testing_support::random_csr;

// Column c of this matrix holds lengths[c] nonzeros, one per row.
CsrF64 with_column_lengths(const std::vector<int32_t>& lengths) {
  CsrF64 a;
  a.cols = static_cast<int32_t>(lengths.size());
  a.row_ptr = {0};
  for (int32_t c = 0; c < a.cols; ++c) {
    for (int32_t k = 0; k < lengths[c]; ++k) {
      a.col_idx.push_back(c);
      a.values.push_back(1.0 + c);
      a.row_ptr.push_back(static_cast<int32_t>(a.col_idx.size()));
    }
  }
  a.rows = static_cast<int32_t>(a.row_ptr.size()) - 1;
  return a;
}

TEST(HotColumns, TheLongestReusedColumnsTakeTheSlotsInOrder) {
  const CsrF64 a = with_column_lengths({2, 5, 1, 5, 3, 0});
  // Lengths 5, 5 (ties by column), 3, 2; the column used once and the empty one are never hot.
  EXPECT_EQ(hot_columns(a, 10).columns, (std::vector<int32_t>{1, 3, 4, 0}));
  EXPECT_EQ(hot_columns(a, 2).columns, (std::vector<int32_t>{1, 3}));
  EXPECT_TRUE(hot_columns(a, 0).columns.empty());
  EXPECT_EQ(hot_column_count(a, 10), 4);
  EXPECT_EQ(hot_column_count(a, 3), 3);
}

TEST(HotColumns, AHotColumnIsStoredAsItsSlotAndTheRestAsThemselves) {
  const CsrF64 a = random_csr(400, 300, 20, 4);
  const HotColumns hot = hot_columns(a, 50);
  ASSERT_EQ(hot.columns.size(), 50u);
  ASSERT_EQ(hot.col_idx.size(), a.col_idx.size());
  std::map<int32_t, int32_t> slot;
  for (size_t s = 0; s < hot.columns.size(); ++s) slot[hot.columns[s]] = static_cast<int32_t>(s);
  int renamed = 0;
  for (size_t k = 0; k < a.col_idx.size(); ++k) {
    const auto it = slot.find(a.col_idx[k]);
    if (it == slot.end()) {
      EXPECT_EQ(hot.col_idx[k], a.col_idx[k]);
    } else {
      EXPECT_EQ(hot.col_idx[k], ~it->second);
      EXPECT_EQ(hot.columns[~hot.col_idx[k]], a.col_idx[k]);  // the kernel's way back
      ++renamed;
    }
  }
  // The 50 hot columns are the longest: no cold column is longer than the shortest hot one.
  std::vector<int64_t> length(300, 0);
  for (int32_t c : a.col_idx) ++length[c];
  int64_t shortest_hot = length[hot.columns.back()];
  for (int32_t c = 0; c < 300; ++c) {
    if (!slot.count(c)) {
      EXPECT_LE(length[c], shortest_hot);
    }
  }
  EXPECT_GT(renamed, 50);
  // The count without the sort agrees with the sorted list, capped or not.
  EXPECT_EQ(hot_column_count(a, 50), 50);
  EXPECT_EQ(hot_column_count(a, 1 << 20), static_cast<int64_t>(hot_columns(a, 1 << 20).columns.size()));
}

TEST(HotColumns, AMatrixWithNoColumnUsedTwiceIsRefused) {
  EXPECT_NE(hot_columns_refusal(with_column_lengths({1, 1, 0, 1})), "");
  EXPECT_NE(hot_columns_refusal(CsrF64{3, 3, {0, 0, 0, 0}, {}, {}}), "");
  EXPECT_EQ(hot_columns_refusal(with_column_lengths({1, 2})), "");
}

}  // namespace
}  // namespace ktune
