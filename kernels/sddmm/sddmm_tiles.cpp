#include "kernels/sddmm/sddmm_tiles.h"

#include <algorithm>

namespace ktune {

namespace {

// Scratch for one panel at a time, cleared through the columns the panel touched: O(nnz) in
// all, not O(panels * cols).
struct PanelColumns {
  std::vector<int32_t> uses;     // by column: rows of the panel that use it
  std::vector<int32_t> dense_at; // by column: its index among the panel's dense columns, or -1
  std::vector<int32_t> touched;
  std::vector<int32_t> dense;    // the panel's dense columns, ascending

  explicit PanelColumns(int32_t cols) : uses(static_cast<size_t>(cols), 0), dense_at(static_cast<size_t>(cols), -1) {}

  void count(const CsrF64& s, int32_t first_row, int32_t end_row) {
    for (int32_t i = s.row_ptr[first_row]; i < s.row_ptr[end_row]; ++i)
      if (uses[static_cast<size_t>(s.col_idx[i])]++ == 0) touched.push_back(s.col_idx[i]);
    for (int32_t col : touched)
      if (uses[static_cast<size_t>(col)] >= kDenseColumnUses) dense.push_back(col);
    std::sort(dense.begin(), dense.end());
    for (size_t j = 0; j < dense.size(); ++j) dense_at[static_cast<size_t>(dense[j])] = static_cast<int32_t>(j);
  }

  void clear() {
    for (int32_t col : touched) uses[static_cast<size_t>(col)] = 0, dense_at[static_cast<size_t>(col)] = -1;
    touched.clear();
    dense.clear();
  }
};

}  // namespace

SddmmTiling sddmm_tiling(const CsrF64& s, int32_t panel_rows, int32_t slots) {
  SddmmTiling t;
  t.panel_rows = panel_rows;
  t.slots = slots;
  t.tile_ptr.push_back(0);
  t.entry_cols.resize(static_cast<size_t>(s.nnz()));
  t.entry_nz.resize(static_cast<size_t>(s.nnz()));
  PanelColumns panel(s.cols);
  for (int32_t first = 0; first < s.rows; first += panel_rows) {
    const int32_t end = std::min(s.rows, first + panel_rows);
    panel.count(s, first, end);
    const int32_t tiles = static_cast<int32_t>((panel.dense.size() + slots - 1) / slots);
    t.tile_ptr.push_back(t.tile_ptr.back() + tiles);
    for (int32_t j = 0; j < tiles * slots; ++j)
      t.tile_cols.push_back(j < static_cast<int32_t>(panel.dense.size()) ? panel.dense[static_cast<size_t>(j)] : -1);
    const size_t segments = t.segment_ends.size();
    t.segment_ends.resize(segments + static_cast<size_t>(tiles) * panel_rows, 0);
    for (int32_t r = first; r < end; ++r) {
      int32_t* ends = t.segment_ends.data() + segments + static_cast<size_t>(r - first) * tiles;
      int32_t at = s.row_ptr[r], tile = 0;
      // Columns ascend along the row and dense columns ascend through the tiles: the row's dense
      // entries come tile by tile in one pass.
      for (int32_t i = s.row_ptr[r]; i < s.row_ptr[r + 1]; ++i) {
        const int32_t j = panel.dense_at[static_cast<size_t>(s.col_idx[i])];
        if (j < 0) continue;
        while (tile < j / slots) ends[tile++] = at;
        t.entry_cols[static_cast<size_t>(at)] = j % slots;
        t.entry_nz[static_cast<size_t>(at++)] = i;
      }
      while (tile < tiles) ends[tile++] = at;
      for (int32_t i = s.row_ptr[r]; i < s.row_ptr[r + 1]; ++i) {
        if (panel.dense_at[static_cast<size_t>(s.col_idx[i])] >= 0) continue;
        t.entry_cols[static_cast<size_t>(at)] = s.col_idx[i];
        t.entry_nz[static_cast<size_t>(at++)] = i;
      }
    }
    panel.clear();
  }
  return t;
}

}  // namespace ktune
