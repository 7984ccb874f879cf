#include "kernels/spmv/spmv_adaptive_partition.h"

#include <gtest/gtest.h>

#include "random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::csr_with_row_lengths;
using testing_support::random_csr;

// Checks the rules of the partition independently of how it was cut: the blocks take the rows
// in order, each exactly once; a run of rows fits one tile and could not take the next row; a
// row alone is longer than a tile or stands before one that is; the slices of a row longer than
// kAdaptiveSplitTiles tiles follow each other and cover it exactly.
void expect_valid_partition(const CsrF64& a, int64_t tile) {
  const AdaptivePartition p = adaptive_partition(a, tile);
  ASSERT_GE(p.blocks(), 1);
  ASSERT_EQ(p.row_blocks.size(), static_cast<size_t>(2 * (p.blocks() + 1)));
  EXPECT_EQ(p.row_blocks[p.row_blocks.size() - 2], a.rows);
  EXPECT_EQ(p.row_blocks.back(), a.nnz());
  const int64_t max_slice = kAdaptiveSplitTiles * tile;
  int64_t row = 0;
  bool any_slice = false;
  for (int64_t b = 0; b < p.blocks(); ++b) {
    const RowBlock block = p.block(b);
    ASSERT_EQ(block.first_row, a.rows == 0 ? 0 : row) << "block " << b;
    EXPECT_EQ(p.row_blocks[2 * b] < 0, block.slice) << "block " << b;
    if (block.slice) {
      any_slice = true;
      const int32_t length = a.row_length(block.first_row);
      EXPECT_GT(length, max_slice) << "row " << row;
      EXPECT_GT(block.end_nz, block.first_nz) << "block " << b;
      EXPECT_LE(block.end_nz - block.first_nz, max_slice) << "block " << b;
      const bool first = b == 0 || !p.block(b - 1).slice || p.block(b - 1).first_row != row;
      if (first) {
        EXPECT_EQ(block.first_nz, a.row_ptr[row]) << "block " << b;
      }
      const bool last = b + 1 == p.blocks() || !p.block(b + 1).slice ||
                        p.block(b + 1).first_row != row;
      if (last) {
        EXPECT_EQ(block.end_nz, a.row_ptr[row + 1]) << "block " << b;
        ++row;
      }
      continue;
    }
    EXPECT_EQ(block.first_nz, a.row_ptr[block.first_row]) << "block " << b;
    EXPECT_EQ(block.end_nz, a.row_ptr[block.end_row]) << "block " << b;
    const int64_t rows = block.end_row - block.first_row;
    const int64_t nnz = block.end_nz - block.first_nz;
    if (a.rows == 0) break;
    ASSERT_GE(rows, 1) << "block " << b;
    if (rows > 1 || nnz <= tile) {
      EXPECT_LE(nnz, tile) << "block " << b;
      EXPECT_LE(rows, tile) << "block " << b;
      if (block.end_row < a.rows && rows < tile) {
        EXPECT_GT(nnz + a.row_length(block.end_row), tile) << "block " << b << " could grow";
      }
    } else {
      EXPECT_LE(nnz, max_slice) << "block " << b;
    }
    row = block.end_row;
  }
  EXPECT_EQ(row, a.rows);
  EXPECT_EQ(p.has_slices, any_slice);
}

TEST(SpmvAdaptivePartition, CutsAHandWorkedExample) {
  // tile 4: rows 0-2 fill a tile; row 3 (5) is alone; the empty rows 4, 5 cannot take row 6,
  // whose 17 nonzeros exceed 4 tiles and split in two slices at 17 / 2; row 7 ends it.
  const CsrF64 a = csr_with_row_lengths({1, 2, 1, 5, 0, 0, 17, 3}, 20);
  const AdaptivePartition p = adaptive_partition(a, 4);
  EXPECT_EQ(p.row_blocks,
            (std::vector<int32_t>{0, 0, 3, 4, 4, 9, ~6, 9, ~6, 17, 7, 26, 8, 29}));
  EXPECT_TRUE(p.has_slices);
  EXPECT_EQ(p.blocks(), 6);
  const RowBlock second_slice = p.block(4);
  EXPECT_TRUE(second_slice.slice);
  EXPECT_EQ(second_slice.first_row, 6);
  EXPECT_EQ(second_slice.end_row, 7);
  EXPECT_EQ(second_slice.first_nz, 17);
  EXPECT_EQ(second_slice.end_nz, 26);
  const RowBlock run = p.block(0);
  EXPECT_FALSE(run.slice);
  EXPECT_EQ(run.end_row, 3);
  EXPECT_EQ(run.end_nz, 4);
}

TEST(SpmvAdaptivePartition, RowsAtTheLimitsOfATile) {
  const int64_t tile = 64;
  const int32_t t = static_cast<int32_t>(tile);
  const int32_t split = static_cast<int32_t>(kAdaptiveSplitTiles * tile);
  const CsrF64 a = csr_with_row_lengths(
      {t, t + 1, split, split + 1, 10 * t + 3, 1, t - 1, 0, 2 * split + 1, 2 * split}, 4 * split);
  expect_valid_partition(a, tile);
  const AdaptivePartition p = adaptive_partition(a, tile);
  // A row of exactly one tile, or exactly the split length, stays whole; 2 * split + 1 takes 3.
  int64_t slices_of_row_8 = 0;
  for (int64_t b = 0; b < p.blocks(); ++b) {
    const RowBlock block = p.block(b);
    if (block.first_row == 0 || block.first_row == 2) {
      EXPECT_FALSE(block.slice);
    }
    if (block.slice && block.first_row == 8) ++slices_of_row_8;
  }
  EXPECT_EQ(slices_of_row_8, 3);
}

TEST(SpmvAdaptivePartition, RandomMatricesForEveryTile) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const CsrF64 a = random_csr(3000, 2000, 40 * static_cast<int32_t>(seed), seed);
    for (int64_t tile : {128, 512, 1024, 4096}) expect_valid_partition(a, tile);
  }
}

TEST(SpmvAdaptivePartition, PowerLawRowsSplitAndShortRowsShareBlocks) {
  const CsrF64 a = generate_rmat(13, 16, 3);
  for (int64_t tile : {128, 1024, 4096}) expect_valid_partition(a, tile);
  const AdaptivePartition p = adaptive_partition(a, 128);
  EXPECT_TRUE(p.has_slices);
  EXPECT_LT(p.blocks(), a.rows / 4);  // short rows share their blocks
}

TEST(SpmvAdaptivePartition, EmptyRowsFormBlocksOfATileOfRows) {
  const CsrF64 a = csr_with_row_lengths(std::vector<int32_t>(3 * 128 + 5, 0), 10);
  expect_valid_partition(a, 128);
  EXPECT_EQ(adaptive_partition(a, 128).blocks(), 4);
}

TEST(SpmvAdaptivePartition, EmptyMatrixHasOneEmptyBlock) {
  const CsrF64 a = random_csr(0, 5, 0, 1);
  expect_valid_partition(a, 256);
  const AdaptivePartition p = adaptive_partition(a, 256);
  EXPECT_EQ(p.row_blocks, (std::vector<int32_t>{0, 0, 0, 0}));
  EXPECT_FALSE(p.has_slices);
}

TEST(SpmvAdaptivePartition, RowWidthGivesEveryRowItsThreadsInOnePass) {
  for (int64_t block : {128, 256, 512, 1024}) {
    for (int64_t rows = 1; rows <= 2 * block; ++rows) {
      const int64_t width = adaptive_row_width(rows, block);
      ASSERT_TRUE(width == 1 || width == 2 || width == 4 || width == 8 || width == 16 ||
                  width == 32);
      if (rows <= block) {
        EXPECT_LE(width * rows, block) << rows << " rows";
      }
      if (width < 32 && rows <= block / 2) {
        EXPECT_GT(2 * width * rows, block) << rows << " rows";  // the widest that fits
      }
      if (rows > block / 2) {
        EXPECT_EQ(width, 1) << rows << " rows";
      }
    }
  }
}

}  // namespace
}  // namespace ktune
