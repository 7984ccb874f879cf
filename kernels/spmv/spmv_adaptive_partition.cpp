#include "kernels/spmv/spmv_adaptive_partition.h"

#include <algorithm>

namespace ktune {

namespace {

void add_boundary(AdaptivePartition& p, int64_t row, int64_t first_nz, bool slice) {
  const auto r = static_cast<int32_t>(row);
  p.row_blocks.push_back(slice ? ~r : r);
  p.row_blocks.push_back(static_cast<int32_t>(first_nz));
}

// Slices of near-equal length, each at most `max_slice` nonzeros.
void add_slices(AdaptivePartition& p, int32_t row, int64_t begin, int64_t length,
                int64_t max_slice) {
  const int64_t slices = (length + max_slice - 1) / max_slice;
  for (int64_t s = 0; s < slices; ++s) add_boundary(p, row, begin + s * length / slices, true);
  p.has_slices = true;
}

int32_t decode_row(int32_t stored) { return stored < 0 ? ~stored : stored; }

}  // namespace

RowBlock AdaptivePartition::block(int64_t b) const {
  const auto at = static_cast<size_t>(2 * b);
  RowBlock block;
  block.slice = row_blocks[at] < 0;
  block.first_row = decode_row(row_blocks[at]);
  block.end_row = block.slice ? block.first_row + 1 : decode_row(row_blocks[at + 2]);
  block.first_nz = row_blocks[at + 1];
  block.end_nz = row_blocks[at + 3];
  return block;
}

AdaptivePartition adaptive_partition(const CsrF64& a, int64_t tile_nnz) {
  AdaptivePartition p;
  p.row_blocks.reserve(static_cast<size_t>(2 * (a.nnz() / tile_nnz + a.rows / tile_nnz + 2)));
  const auto row_end = a.row_ptr.begin() + 1;  // row_end[r] == row_ptr[r + 1]
  int64_t row = 0;
  while (row < a.rows) {
    const int64_t begin = a.row_ptr[row];
    const int64_t last = std::min<int64_t>(a.rows, row + tile_nnz);
    // A binary search per block, not a step per row: the partition of a matrix with millions
    // of short rows is paid on every prepare().
    const int64_t end = std::upper_bound(row_end + row, row_end + last, begin + tile_nnz) - row_end;
    if (end > row) {
      add_boundary(p, row, begin, false);
      row = end;
      continue;
    }
    const int64_t length = a.row_length(static_cast<int32_t>(row));
    if (length > kAdaptiveSplitTiles * tile_nnz) {
      add_slices(p, static_cast<int32_t>(row), begin, length, kAdaptiveSplitTiles * tile_nnz);
    } else {
      add_boundary(p, row, begin, false);
    }
    ++row;
  }
  if (p.row_blocks.empty()) add_boundary(p, 0, 0, false);
  add_boundary(p, a.rows, a.nnz(), false);
  return p;
}

int64_t adaptive_row_width(int64_t rows, int64_t block) {
  int64_t width = 1;
  while (width < 32 && 2 * width * rows <= block) width *= 2;
  return width;
}

}  // namespace ktune
