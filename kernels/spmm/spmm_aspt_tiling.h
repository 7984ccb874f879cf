#pragma once
// ASpT's adaptive tiling of A for the aspt schedule (digest-000 §5.2, §5.4). A is cut into row
// panels of `panel_rows` rows (the rows of one thread block). In a panel, a column is dense when
// kAsptDenseUses or more of its rows use it: its row of B is then worth staging in shared memory
// once for them all. The panel's dense columns, in order, are grouped into tiles of up to `slots`
// columns (what the block stages at once). Each row's nonzeros are reordered tile by tile, dense
// tiles first and the sparse rest last (ASpT's unordered CSR): row_ptr keeps its meaning.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

constexpr int32_t kAsptDenseUses = 2;

struct AsptTiling {
  int32_t panel_rows = 0;
  int32_t slots = 0;
  // Panel p's dense tiles are [tile_ptr[p], tile_ptr[p + 1]).
  std::vector<int32_t> tile_ptr;
  // Tile t stages the columns tile_cols[tile_col_ptr[t] .. tile_col_ptr[t + 1]), slot by slot
  // (`slots` of them, fewer in a panel's last tile).
  std::vector<int32_t> tile_col_ptr;
  std::vector<int32_t> tile_cols;
  // Where each row's run in each tile ends: tile t's run of the panel's local row i ends at
  // segment_ends[t * panel_rows + i]; the first run starts at row_ptr[row], and the sparse rest
  // after the last tile's run ends at row_ptr[row + 1].
  std::vector<int32_t> segment_ends;
  // The reordered nonzeros: the slot (in a tile's run) or the column (in the sparse rest) of
  // each, and its value.
  std::vector<int32_t> cols;
  std::vector<double> values;

  int64_t tiles() const { return tile_ptr.empty() ? 0 : tile_ptr.back(); }
};

AsptTiling aspt_tiling(const CsrF64& a, int32_t panel_rows, int32_t slots);

}  // namespace ktune
