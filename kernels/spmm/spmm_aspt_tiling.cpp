#include "kernels/spmm/spmm_aspt_tiling.h"

#include <algorithm>

namespace ktune {

AsptTiling aspt_tiling(const CsrF64& a, int32_t panel_rows, int32_t slots) {
  AsptTiling t;
  t.panel_rows = panel_rows;
  t.slots = slots;
  t.tile_ptr.push_back(0);
  t.tile_col_ptr.push_back(0);
  t.cols.resize(static_cast<size_t>(a.nnz()));
  t.values.resize(static_cast<size_t>(a.nnz()));
  std::vector<int32_t> uses(static_cast<size_t>(a.cols), 0);
  std::vector<int32_t> dense_index(static_cast<size_t>(a.cols), -1);  // a dense column's place in its panel
  for (int32_t first = 0; first < a.rows; first += panel_rows) {
    const int32_t last = std::min(a.rows, first + panel_rows);
    std::vector<int32_t> dense;
    for (int32_t i = a.row_ptr[first]; i < a.row_ptr[last]; ++i)
      if (++uses[static_cast<size_t>(a.col_idx[i])] == kAsptDenseUses) dense.push_back(a.col_idx[i]);
    std::sort(dense.begin(), dense.end());
    for (size_t d = 0; d < dense.size(); ++d) dense_index[static_cast<size_t>(dense[d])] = static_cast<int32_t>(d);
    const int32_t tiles =
        static_cast<int32_t>((dense.size() + static_cast<size_t>(slots) - 1) / static_cast<size_t>(slots));
    const int64_t tile_base = t.tiles();
    t.tile_ptr.push_back(static_cast<int32_t>(tile_base + tiles));
    for (size_t d = 0; d < dense.size(); d += static_cast<size_t>(slots))
      t.tile_col_ptr.push_back(
          static_cast<int32_t>(t.tile_cols.size() + std::min(dense.size(), d + static_cast<size_t>(slots))));
    t.tile_cols.insert(t.tile_cols.end(), dense.begin(), dense.end());
    t.segment_ends.resize(static_cast<size_t>(t.tiles() * panel_rows), 0);
    // Each row, its entries by tile (the sparse rest as tile `tiles`), keeping their order.
    auto tile_of = [&](int32_t col) {
      const int32_t d = dense_index[static_cast<size_t>(col)];
      return d < 0 ? tiles : d / slots;
    };
    std::vector<int32_t> count(static_cast<size_t>(tiles) + 1), next(static_cast<size_t>(tiles) + 1);
    for (int32_t r = first; r < last; ++r) {
      std::fill(count.begin(), count.end(), 0);
      for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) ++count[static_cast<size_t>(tile_of(a.col_idx[i]))];
      int32_t at = a.row_ptr[r];
      for (int32_t k = 0; k <= tiles; ++k) {
        next[static_cast<size_t>(k)] = at;
        at += count[static_cast<size_t>(k)];
        if (k < tiles) t.segment_ends[static_cast<size_t>((tile_base + k) * panel_rows + (r - first))] = at;
      }
      for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
        const int32_t col = a.col_idx[i];
        const int32_t k = tile_of(col);
        const int32_t to = next[static_cast<size_t>(k)]++;
        t.cols[static_cast<size_t>(to)] = k < tiles ? dense_index[static_cast<size_t>(col)] % slots : col;
        t.values[static_cast<size_t>(to)] = a.values[static_cast<size_t>(i)];
      }
    }
    for (int32_t i = a.row_ptr[first]; i < a.row_ptr[last]; ++i) uses[static_cast<size_t>(a.col_idx[i])] = 0;
    for (int32_t col : dense) dense_index[static_cast<size_t>(col)] = -1;
  }
  return t;
}

}  // namespace ktune
