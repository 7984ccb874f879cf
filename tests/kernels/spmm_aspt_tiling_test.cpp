#include "kernels/spmm/spmm_aspt_tiling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::random_csr;

// The tiling read back as spmm_aspt.cu reads it: each row's entries as (column, value) pairs,
// tile runs through tile_cols, the sparse rest as they are.
std::vector<std::map<int32_t, double>> rows_of(const CsrF64& a, const AsptTiling& t) {
  std::vector<std::map<int32_t, double>> rows(static_cast<size_t>(a.rows));
  for (int32_t r = 0; r < a.rows; ++r) {
    const int32_t panel = r / t.panel_rows, local = r % t.panel_rows;
    int32_t nz = a.row_ptr[r];
    for (int32_t tile = t.tile_ptr[panel]; tile < t.tile_ptr[panel + 1]; ++tile) {
      for (const int32_t end = t.segment_ends[static_cast<size_t>(tile) * t.panel_rows + local]; nz < end; ++nz) {
        const int32_t slot = t.cols[nz];
        EXPECT_TRUE(slot >= 0 && slot < t.tile_col_ptr[tile + 1] - t.tile_col_ptr[tile]) << slot;
        rows[r][t.tile_cols[t.tile_col_ptr[tile] + slot]] += t.values[nz];
      }
    }
    for (; nz < a.row_ptr[r + 1]; ++nz) rows[r][t.cols[nz]] += t.values[nz];
  }
  return rows;
}

TEST(SpmmAsptTiling, EveryNonzeroIsReadOnceThroughItsTileOrTheSparseRest) {
  for (const CsrF64& a :
       {random_csr(300, 40, 12, 1), random_csr(97, 500, 30, 2), generate_stencil_2d(17), random_csr(0, 5, 0, 3)}) {
    for (const auto& [panel_rows, slots] : {std::pair<int32_t, int32_t>{8, 4}, {32, 64}, {64, 256}, {4, 1}}) {
      const AsptTiling t = aspt_tiling(a, panel_rows, slots);
      ASSERT_EQ(t.tile_ptr.size(), static_cast<size_t>((a.rows + panel_rows - 1) / panel_rows + 1));
      ASSERT_EQ(t.tile_col_ptr.size(), static_cast<size_t>(t.tiles() + 1));
      EXPECT_EQ(t.tile_col_ptr.back(), static_cast<int32_t>(t.tile_cols.size()));
      for (int64_t tile = 0; tile < t.tiles(); ++tile) {
        const int32_t width = t.tile_col_ptr[tile + 1] - t.tile_col_ptr[tile];
        EXPECT_TRUE(width >= 1 && width <= slots) << width;
      }
      EXPECT_EQ(t.segment_ends.size(), static_cast<size_t>(t.tiles() * panel_rows));
      const std::vector<std::map<int32_t, double>> got = rows_of(a, t);
      for (int32_t r = 0; r < a.rows; ++r) {
        std::map<int32_t, double> want;
        for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) want[a.col_idx[i]] += a.values[i];
        EXPECT_EQ(got[r], want) << "row " << r << ", panels of " << panel_rows << ", " << slots << " slots";
      }
    }
  }
}

// A column is staged exactly when two rows or more of its panel use it, once, in column order;
// tiles are full but for the panel's last.
TEST(SpmmAsptTiling, StagesThePanelsDenseColumnsInOrder) {
  const CsrF64 a = random_csr(200, 60, 10, 4);
  const int32_t panel_rows = 16, slots = 8;
  const AsptTiling t = aspt_tiling(a, panel_rows, slots);
  for (int32_t panel = 0; panel * panel_rows < a.rows; ++panel) {
    std::map<int32_t, int32_t> uses;
    for (int32_t r = panel * panel_rows; r < std::min(a.rows, (panel + 1) * panel_rows); ++r)
      for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) ++uses[a.col_idx[i]];
    std::vector<int32_t> dense;
    for (const auto& [col, n] : uses)
      if (n >= kAsptDenseUses) dense.push_back(col);
    std::vector<int32_t> staged;
    for (int32_t tile = t.tile_ptr[panel]; tile < t.tile_ptr[panel + 1]; ++tile) {
      const int32_t width = t.tile_col_ptr[tile + 1] - t.tile_col_ptr[tile];
      EXPECT_TRUE(width == slots || tile + 1 == t.tile_ptr[panel + 1]) << "a tile but the panel's last is full";
      staged.insert(staged.end(), t.tile_cols.begin() + t.tile_col_ptr[tile],
                    t.tile_cols.begin() + t.tile_col_ptr[tile + 1]);
    }
    EXPECT_EQ(staged, dense) << "panel " << panel;
    EXPECT_EQ(t.tile_ptr[panel + 1] - t.tile_ptr[panel], static_cast<int32_t>((dense.size() + slots - 1) / slots));
  }
  EXPECT_GT(t.tiles(), (a.rows + panel_rows - 1) / panel_rows);  // some panel needs several tiles
}

}  // namespace
}  // namespace ktune
