#pragma once
// ASpT's adaptive tiling of S for the tiled schedule (digest-000 §5.2, §5.5). S is cut into row
// panels of `panel_rows` rows (the rows of one thread block). In a panel, a column is dense when
// kDenseColumnUses or more of its rows use it: its row of B is then worth staging in shared
// memory once for them all. The panel's dense columns, in order, are grouped into tiles of up to
// `slots` columns (a tile is what the block stages at once). Each row's nonzeros are reordered
// tile by tile, dense tiles first and the sparse rest last (ASpT's unordered CSR); row_ptr keeps
// its meaning, and each reordered entry remembers its place in S's CSR order, where its output
// goes.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

constexpr int32_t kDenseColumnUses = 2;

struct SddmmTiling {
  int32_t panel_rows = 0;
  int32_t slots = 0;
  // Panel p's dense tiles are [tile_ptr[p], tile_ptr[p + 1]).
  std::vector<int32_t> tile_ptr;
  // slots entries a tile: the column staged in each slot, -1 past the tile's last column.
  std::vector<int32_t> tile_cols;
  // Where each row's run in each tile of its panel ends: for local row i of panel p with T tiles,
  // tile t's run ends at segment_ends[tile_ptr[p] * panel_rows + i * T + t]; the first run
  // starts at row_ptr[row], and the sparse rest ends at row_ptr[row + 1].
  std::vector<int32_t> segment_ends;
  // nnz entries, in the reordered CSR: the slot (dense runs) or column (sparse rest) of each,
  // and its position in S's CSR order.
  std::vector<int32_t> entry_cols;
  std::vector<int32_t> entry_nz;

  int64_t tiles() const { return tile_ptr.empty() ? 0 : tile_ptr.back(); }
};

SddmmTiling sddmm_tiling(const CsrF64& s, int32_t panel_rows, int32_t slots);

}  // namespace ktune
