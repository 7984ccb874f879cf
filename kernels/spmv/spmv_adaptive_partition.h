#pragma once
// The row blocks of CSR-Adaptive (Greathouse & Daga, SC'14), cut on the host: one thread block
// of the adaptive schedule per row block.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// Rows [first_row, end_row) with their nonzeros [first_nz, end_nz); a slice is part of the
// nonzeros of one row (end_row = first_row + 1), which the kernel adds into y atomically.
struct RowBlock {
  int32_t first_row = 0;
  int32_t end_row = 0;
  int32_t first_nz = 0;
  int32_t end_nz = 0;
  bool slice = false;
};

struct AdaptivePartition {
  // The device form: a boundary of two ints per block, plus a last one {rows, nnz}. A boundary
  // holds the block's first row, stored as ~row (negative) when the block is a slice, then its
  // first nonzero; a block ends where the next boundary begins.
  std::vector<int32_t> row_blocks;
  bool has_slices = false;  // y must be zeroed before the kernel runs

  int64_t blocks() const { return static_cast<int64_t>(row_blocks.size() / 2) - 1; }
  RowBlock block(int64_t b) const;
};

// A row longer than this many tiles is cut into slices, a block each: as one block it would run
// that many times longer than the others, and a power-law matrix's heaviest rows would finish
// alone while the rest of the GPU idles.
constexpr int64_t kAdaptiveSplitTiles = 4;

// Row blocks for tiles of `tile_nnz` nonzeros, cut greedily in row order: a run of whole rows
// whose nonzeros fit one tile (at most tile_nnz rows, so that runs of empty rows stay short
// too); a row longer than a tile on its own; a row longer than kAdaptiveSplitTiles tiles in
// near-equal slices of at most that many tiles. At least one block, even for an empty matrix.
AdaptivePartition adaptive_partition(const CsrF64& a, int64_t tile_nnz);

// Threads per row when a block of `block` threads reduces `rows` whole rows from its tile, as
// spmv_adaptive.cu picks it: the largest power of two, at most a warp, that gives every row its
// threads in one pass; 1 when the rows outnumber the threads.
int64_t adaptive_row_width(int64_t rows, int64_t block);

}  // namespace ktune
