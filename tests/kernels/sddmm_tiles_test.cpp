#include "kernels/sddmm/sddmm_tiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::random_csr;

// Checks `t` against its definition (sddmm_tiles.h), entry by entry, from S alone.
void expect_tiling_of(const CsrF64& s, const SddmmTiling& t) {
  const int32_t panels = (s.rows + t.panel_rows - 1) / t.panel_rows;
  ASSERT_EQ(t.tile_ptr.size(), static_cast<size_t>(panels) + 1);
  ASSERT_EQ(t.tile_cols.size(), static_cast<size_t>(t.tiles()) * t.slots);
  ASSERT_EQ(t.segment_ends.size(), static_cast<size_t>(t.tiles()) * t.panel_rows);
  ASSERT_EQ(t.entry_cols.size(), static_cast<size_t>(s.nnz()));
  for (int32_t p = 0; p < panels; ++p) {
    const int32_t first = p * t.panel_rows, end = std::min(s.rows, first + t.panel_rows);
    std::map<int32_t, int32_t> uses;
    for (int32_t i = s.row_ptr[first]; i < s.row_ptr[end]; ++i) ++uses[s.col_idx[i]];
    std::vector<int32_t> dense;
    for (const auto& [col, n] : uses)
      if (n >= kDenseColumnUses) dense.push_back(col);
    // The dense columns in order, tile after tile, the last tile padded with -1.
    const int32_t tiles = t.tile_ptr[p + 1] - t.tile_ptr[p];
    ASSERT_EQ(tiles, static_cast<int32_t>((dense.size() + t.slots - 1) / t.slots)) << "panel " << p;
    std::vector<int32_t> staged(t.tile_cols.begin() + int64_t{t.tile_ptr[p]} * t.slots,
                                t.tile_cols.begin() + int64_t{t.tile_ptr[p + 1]} * t.slots);
    std::vector<int32_t> padded = dense;
    padded.resize(staged.size(), -1);
    EXPECT_EQ(staged, padded) << "panel " << p;
    for (int32_t r = first; r < end; ++r) {
      // Each run holds the row's nonzeros of one tile, by slot; the rest holds the others by column.
      std::vector<int32_t> seen;
      int32_t at = s.row_ptr[r];
      for (int32_t tile = 0; tile <= tiles; ++tile) {
        const int32_t run_end = tile < tiles
                                    ? t.segment_ends[static_cast<size_t>(t.tile_ptr[p]) * t.panel_rows + (r - first) * tiles + tile]
                                    : s.row_ptr[r + 1];
        ASSERT_LE(at, run_end);
        for (; at < run_end; ++at) {
          const int32_t nz = t.entry_nz[static_cast<size_t>(at)];
          ASSERT_GE(nz, s.row_ptr[r]);
          ASSERT_LT(nz, s.row_ptr[r + 1]);
          const int32_t col = s.col_idx[nz];
          if (tile < tiles) {
            EXPECT_EQ(staged[static_cast<size_t>(tile * t.slots + t.entry_cols[static_cast<size_t>(at)])], col);
          } else {
            EXPECT_EQ(t.entry_cols[static_cast<size_t>(at)], col);
            EXPECT_LT(uses[col], kDenseColumnUses);
          }
          seen.push_back(nz);
        }
      }
      std::sort(seen.begin(), seen.end());
      std::vector<int32_t> all(static_cast<size_t>(s.row_length(r)));
      for (size_t i = 0; i < all.size(); ++i) all[i] = s.row_ptr[r] + static_cast<int32_t>(i);
      EXPECT_EQ(seen, all) << "row " << r << " holds each of its nonzeros once";
    }
  }
}

TEST(SddmmTiling, ReordersEachRowIntoItsPanelsDenseTilesAndASparseRest) {
  for (const auto& [s, panel, slots] : std::vector<std::tuple<CsrF64, int32_t, int32_t>>{
           {generate_banded(150, 10, 3), 64, 32},   // several tiles a panel
           {generate_stencil_2d(12), 8, 256},        // one tile a panel, a sparse rest
           {random_csr(300, 50, 8, 4), 16, 4},       // many small tiles
           {random_csr(61, 1000, 3, 5), 4, 64},      // mostly sparse, a short last panel
           {random_csr(20, 20, 0, 6), 8, 16},        // no nonzeros at all
           {random_csr(0, 5, 0, 7), 8, 16}}) {
    SCOPED_TRACE(std::to_string(s.rows) + " rows, panels of " + std::to_string(panel) + ", " + std::to_string(slots) +
                 " slots");
    expect_tiling_of(s, sddmm_tiling(s, panel, slots));
  }
}

TEST(SddmmTiling, AColumnOneRowOfAPanelUsesStaysSparse) {
  // Rows 0 and 1 (one panel) share column 3; column 5 only row 1 uses; the next panel reuses 3 once.
  CsrF64 s;
  s.rows = 3;
  s.cols = 6;
  s.row_ptr = {0, 1, 3, 4};
  s.col_idx = {3, 3, 5, 3};
  s.values = {1, 1, 1, 1};
  const SddmmTiling t = sddmm_tiling(s, 2, 4);
  EXPECT_EQ(t.tile_ptr, (std::vector<int32_t>{0, 1, 1}));
  EXPECT_EQ(t.tile_cols, (std::vector<int32_t>{3, -1, -1, -1}));
  EXPECT_EQ(t.segment_ends, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(t.entry_cols, (std::vector<int32_t>{0, 0, 5, 3}));
  EXPECT_EQ(t.entry_nz, (std::vector<int32_t>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace ktune
