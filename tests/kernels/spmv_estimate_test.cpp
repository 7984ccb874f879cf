#include "kernels/spmv/spmv_estimate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "kernels/spmv/spmv_sell_format.h"
#include "random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::constant_rows_csr;
using testing_support::random_csr;

SpmvConfig config(SpmvSchedule schedule, int32_t block, int32_t lanes, int32_t items) {
  SpmvConfig c;
  c.schedule = schedule;
  c.block = block;
  c.lanes = lanes;
  c.items_per_thread = items;
  return c;
}

double total(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// The identity: row r reads x[r] alone.
CsrF64 identity(int32_t n) {
  CsrF64 a;
  a.rows = a.cols = n;
  for (int32_t r = 0; r <= n; ++r) a.row_ptr.push_back(r);
  for (int32_t r = 0; r < n; ++r) {
    a.col_idx.push_back(r);
    a.values.push_back(1.0);
  }
  return a;
}

TEST(SpmvEstimate, RowScheduleWarpWorkIsTheLongestRowOfEach32) {
  const CsrF64 a = constant_rows_csr(1000, 50, 7);
  const WorkEstimate e = estimate_spmv(a, config(SpmvSchedule::Row, 256, 1, 1), Dtype::F32);
  EXPECT_EQ(e.blocks, 4);  // ceil(1000 / 256)
  EXPECT_EQ(e.threads_per_block, 256);
  EXPECT_EQ(e.launches, 1);
  ASSERT_EQ(e.warp_work.size(), 4u * 256 / 32);
  EXPECT_DOUBLE_EQ(total(e.warp_work), 32.0 * 7);  // ceil(1000 / 32) = 32 warps hold rows

  std::vector<int32_t> lengths(64, 1);
  lengths[5] = 100;
  const CsrF64 skewed = testing_support::csr_with_row_lengths(lengths, 200);
  const WorkEstimate s = estimate_spmv(skewed, config(SpmvSchedule::Row, 64, 1, 1), Dtype::F32);
  EXPECT_EQ(s.warp_work, (std::vector<float>{100, 1}));
}

TEST(SpmvEstimate, SubwarpWarpWorkDividesRowsAmongLanes) {
  const CsrF64 a = constant_rows_csr(1000, 50, 13);
  for (int32_t lanes : {2, 4, 8, 16, 32}) {
    const WorkEstimate e =
        estimate_spmv(a, config(SpmvSchedule::Subwarp, 128, lanes, 1), Dtype::F64);
    const int64_t rows_per_warp = 32 / lanes;
    const int64_t busy_warps = (1000 + rows_per_warp - 1) / rows_per_warp;
    EXPECT_EQ(e.blocks, (1000 + 128 / lanes - 1) / (128 / lanes));
    ASSERT_EQ(e.warp_work.size(), static_cast<size_t>(e.blocks * 4));
    EXPECT_DOUBLE_EQ(total(e.warp_work),
                     static_cast<double>(busy_warps * ((13 + lanes - 1) / lanes)))
        << lanes;
  }
}

TEST(SpmvEstimate, MergeGivesEveryFullWarpItsItemsPerThread) {
  const CsrF64 a = random_csr(3000, 2000, 40, 3);
  const int64_t path = a.rows + a.nnz();
  for (int32_t items : {1, 5, 16}) {
    const WorkEstimate e = estimate_spmv(a, config(SpmvSchedule::Merge, 128, 1, items), Dtype::F32);
    EXPECT_EQ(e.blocks, (path + 128 * items - 1) / (128 * items));
    ASSERT_EQ(e.warp_work.size(), static_cast<size_t>(e.blocks * 4));
    // Warps take consecutive stretches of 32 * items path items; lane 0 of the last one may
    // get fewer than `items`.
    const int64_t warp_items = 32 * items;
    const double expected = static_cast<double>(path / warp_items * items +
                                                std::min<int64_t>(items, path % warp_items));
    EXPECT_DOUBLE_EQ(total(e.warp_work), expected) << items;
    EXPECT_EQ(*std::max_element(e.warp_work.begin(), e.warp_work.end()), items);
  }
}

// Warp work of the slowest lane times the lanes at work bounds the nonzeros from above.
TEST(SpmvEstimate, WarpWorkCoversEveryNonzero) {
  const CsrF64 a = random_csr(2000, 3000, 60, 4);
  for (int32_t lanes : {1, 4, 32}) {
    const SpmvSchedule s = lanes == 1 ? SpmvSchedule::Row : SpmvSchedule::Subwarp;
    const WorkEstimate e = estimate_spmv(a, config(s, 256, lanes, 1), Dtype::F32);
    EXPECT_GE(total(e.warp_work) * 32, static_cast<double>(a.nnz()));
  }
}

// The identity in f32: a warp of 32 rows reads 32 consecutive floats of x, four 32-byte
// sectors; a merge warp instruction gathers 32 consecutive nonzeros, the same sectors.
TEST(SpmvEstimate, DramBytesCountGatheredSectorsOfX) {
  const int32_t n = 1000;
  const CsrF64 a = identity(n);
  const double x_bytes = (n / 32) * 4 * 32 + 32;   // 31 full warps, then 8 floats: one sector
  const double streams = (n + 1) * 4.0 + n * 8.0;  // row_ptr, col_idx, values
  EXPECT_DOUBLE_EQ(estimate_spmv(a, config(SpmvSchedule::Row, 256, 1, 1), Dtype::F32).dram_bytes,
                   streams + x_bytes + n * 4.0);
  // Merge's tiles of 1024 items begin in rows 0 and 512, which it zeroes (index read, value
  // written) before adding into them; y is written once.
  EXPECT_DOUBLE_EQ(estimate_spmv(a, config(SpmvSchedule::Merge, 256, 1, 4), Dtype::F32).dram_bytes,
                   streams + x_bytes + n * 4.0 + 2 * (4 + 4.0));
  // Adaptive blocks of 128 rows gather 32 consecutive nonzeros per warp, as the row schedule;
  // they also read their 8 row blocks and the end boundary.
  EXPECT_DOUBLE_EQ(
      estimate_spmv(a, config(SpmvSchedule::Adaptive, 128, 1, 1), Dtype::F32).dram_bytes,
      streams + x_bytes + n * 4.0 + 9 * 8.0);
  // One row per warp (lanes = 32): every row pays a sector of its own.
  EXPECT_DOUBLE_EQ(
      estimate_spmv(a, config(SpmvSchedule::Subwarp, 256, 32, 1), Dtype::F32).dram_bytes,
      streams + n * 32.0 + n * 4.0);
}

// 1000 rows of 7 in tiles of 128: 55 blocks of 18 rows (126 nonzeros), then one of 10 rows.
// An 18-row block reduces 4 threads a row, so warps 0-2 take 8, 8 and 2 rows (2 iterations
// each) after one staging load each; warp 3 only loads. The last block: 8 threads a row,
// warps 0-2 load once and sum once, warp 3 has nothing.
TEST(SpmvEstimate, AdaptiveWarpWorkStagesThenReduces) {
  const CsrF64 a = constant_rows_csr(1000, 50, 7);
  const WorkEstimate e = estimate_spmv(a, config(SpmvSchedule::Adaptive, 128, 1, 1), Dtype::F32);
  EXPECT_EQ(e.blocks, 56);
  EXPECT_EQ(e.threads_per_block, 128);
  ASSERT_EQ(e.warp_work.size(), 56u * 4);
  EXPECT_EQ(std::vector<double>(e.warp_work.begin(), e.warp_work.begin() + 4),
            (std::vector<double>{3, 3, 3, 1}));
  EXPECT_EQ(std::vector<double>(e.warp_work.end() - 4, e.warp_work.end()),
            (std::vector<double>{2, 2, 2, 0}));
  EXPECT_DOUBLE_EQ(total(e.warp_work), 55 * 10.0 + 6);
}

// Rows of 8, 2048 and 8 nonzeros, tiles of 128: the long row exceeds 4 tiles and is cut into
// 4 slices of 512, each starting on a 32-byte sector of x. Every warp of a slice strides over
// it 4 times; y is zeroed before the slices add into it.
TEST(SpmvEstimate, AdaptiveSlicesOfALongRow) {
  const CsrF64 a = testing_support::csr_with_row_lengths({8, 2048, 8}, 2048);
  const WorkEstimate e = estimate_spmv(a, config(SpmvSchedule::Adaptive, 128, 1, 1), Dtype::F32);
  EXPECT_EQ(e.blocks, 6);
  ASSERT_EQ(e.warp_work.size(), 6u * 4);
  EXPECT_DOUBLE_EQ(total(e.warp_work), 4 * 16.0 + 2);
  const double streams = 4 * 4.0 + 2064 * 8.0;
  const double x_bytes = (1 + 4 * 64 + 1) * 32.0;  // row 0, four slices, row 2
  const double row_blocks = 7 * 8.0;
  EXPECT_DOUBLE_EQ(e.dram_bytes, streams + x_bytes + 3 * 4.0 + (4 + 4.0) + row_blocks);  // row 1 zeroed first
  EXPECT_EQ(e.launches, 2);
}

TEST(SpmvEstimate, SharedColumnsCostOneSectorPerWarp) {
  const CsrF64 a = constant_rows_csr(640, 100, 1);  // every row reads x[0]
  const WorkEstimate e = estimate_spmv(a, config(SpmvSchedule::Row, 128, 1, 1), Dtype::F64);
  EXPECT_DOUBLE_EQ(e.dram_bytes, 641 * 4.0 + 640 * 12.0 + 20 * 32.0 + 640 * 8.0);
  EXPECT_GE(e.dram_bytes, spmv_min_bytes(a, Dtype::F64) - 100 * 8.0);
}

}  // namespace
}  // namespace ktune

namespace ktune {
namespace {

// Sell's warps are the row schedule's (a lane a row, 32 rows a warp) over the SELL-32 form: it
// reads slice offsets instead of row pointers, and its padding besides the nonzeros.
TEST(SpmvEstimate, SellReadsSliceOffsetsAndPaddingInsteadOfRowPointers) {
  const CsrF64 a = generate_stencil_2d(30);  // 900 rows of 3 to 5 entries: padded slices
  const SellShape shape = sell_shape(a);
  ASSERT_GT(shape.stored, a.nnz());
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const WorkEstimate row = estimate_spmv(a, config(SpmvSchedule::Row, 128, 1, 1), dtype);
    const WorkEstimate sell = estimate_spmv(a, config(SpmvSchedule::Sell, 128, 1, 1), dtype);
    EXPECT_EQ(sell.warp_work, row.warp_work);
    EXPECT_EQ(sell.blocks, row.blocks);
    const double entry_bytes = 4.0 + static_cast<double>(dtype_size(dtype));
    const double expected = (shape.slices - a.rows) * 4.0 + (shape.stored - a.nnz()) * entry_bytes;
    EXPECT_DOUBLE_EQ(sell.dram_bytes - row.dram_bytes, expected);
    // sell16's offsets are half the size of sell's columns; all else is the same.
    const WorkEstimate sell16 = estimate_spmv(a, config(SpmvSchedule::Sell16, 128, 1, 1), dtype);
    EXPECT_EQ(sell16.warp_work, sell.warp_work);
    EXPECT_DOUBLE_EQ(sell.dram_bytes - sell16.dram_bytes, shape.stored * 2.0);
  }
}

}  // namespace
}  // namespace ktune
