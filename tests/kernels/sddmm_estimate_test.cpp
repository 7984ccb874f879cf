#include "kernels/sddmm/sddmm_estimate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "kernels/sddmm/sddmm_tiles.h"
#include "random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::random_csr;

SddmmConfig config(SddmmSchedule schedule, int32_t block, int32_t lanes, int32_t vec, int32_t coarsen, int32_t chunks) {
  SddmmConfig c;
  c.schedule = schedule;
  c.block = block;
  c.lanes = lanes;
  c.vec = vec;
  c.coarsen = coarsen;
  c.chunks = chunks;
  return c;
}

// The identity: nonzero r is (r, r).
CsrF64 identity(int32_t n) {
  CsrF64 a;
  a.rows = a.cols = n;
  for (int32_t r = 0; r <= n; ++r) a.row_ptr.push_back(r);
  for (int32_t r = 0; r < n; ++r) a.col_idx.push_back(r), a.values.push_back(1.0);
  return a;
}

// The estimate's warps are the launch's, block after block, so the emulator can weigh blocks by them.
TEST(SddmmEstimate, DescribesTheLaunchedGrid) {
  const CsrF64 s = random_csr(900, 700, 30, 4);
  for (const Config& c : sddmm_space(40).enumerate()) {
    const SddmmConfig config = SddmmConfig::from(c, 40);
    const WorkEstimate e = estimate_sddmm(s, config, 40, Dtype::F32);
    EXPECT_EQ(e.blocks, config.blocks(s.rows, s.nnz()));
    EXPECT_EQ(e.threads_per_block, config.block);
    EXPECT_EQ(e.launches, 1);
    EXPECT_EQ(e.warp_work.size(), static_cast<size_t>(e.blocks * config.block / 32));
    EXPECT_GT(std::accumulate(e.warp_work.begin(), e.warp_work.end(), 0.0), 0);
    EXPECT_GT(e.dram_bytes, 0);
  }
}

// On the identity every warp reads distinct rows of A and B: the bytes are exact.
TEST(SddmmEstimate, CountsEachScheduleTrafficOnTheIdentity) {
  const int32_t n = 1000, k = 32;
  const CsrF64 s = identity(n);
  const double row = k * 4.0;
  // Nonzero: row_idx and col_idx, A and B once each (one nonzero a group), c.
  const WorkEstimate nonzero = estimate_sddmm(s, config(SddmmSchedule::Nonzero, 128, 8, 1, 2, 1), k, Dtype::F32);
  EXPECT_DOUBLE_EQ(nonzero.dram_bytes, n * 8.0 + 2 * n * row + n * 4.0);
  // Row, two passes of 16: row_ptr, col_idx twice, A and B once, c stored then added to.
  const WorkEstimate row_two = estimate_sddmm(s, config(SddmmSchedule::Row, 128, 16, 1, 1, 1), k, Dtype::F32);
  EXPECT_DOUBLE_EQ(row_two.dram_bytes, (n + 1) * 4.0 + 2 * n * 4.0 + 2 * n * row + 3 * n * 4.0);
  // Its warps (two rows each) run two passes of their one-nonzero rows.
  EXPECT_EQ(row_two.warp_work.front(), 2 * (1 + 1));
}

// A banded matrix's columns are each used by many rows of a panel: the tiled schedule stages their
// B rows once a panel, where the row schedule's warps gather them again and again.
TEST(SddmmEstimate, TilingABandReadsLessOfB) {
  const CsrF64 band = generate_banded(4096, 8, 2);
  const WorkEstimate row = estimate_sddmm(band, config(SddmmSchedule::Row, 256, 8, 4, 1, 1), 32, Dtype::F32);
  const WorkEstimate tiled = estimate_sddmm(band, config(SddmmSchedule::Tiled, 256, 8, 4, 1, 1), 32, Dtype::F32);
  EXPECT_LT(tiled.dram_bytes, 0.7 * row.dram_bytes);
  // On rows that share no columns, nothing is staged and tiling saves nothing.
  const CsrF64 diagonal = identity(4096);
  EXPECT_GE(estimate_sddmm(diagonal, config(SddmmSchedule::Tiled, 256, 8, 4, 1, 1), 32, Dtype::F32).dram_bytes,
            estimate_sddmm(diagonal, config(SddmmSchedule::Row, 256, 8, 4, 1, 1), 32, Dtype::F32).dram_bytes);
}

// A row's group walks the row once a pass: the warp holding a long row is as slow as it is long,
// where the nonzero schedule spreads that row over many warps.
TEST(SddmmEstimate, ALongRowSlowsItsWarpInTheRowScheduleOnly) {
  std::vector<int32_t> lengths(64, 2);
  lengths[9] = 3000;
  const CsrF64 s = testing_support::csr_with_row_lengths(lengths, 4000);
  const WorkEstimate row = estimate_sddmm(s, config(SddmmSchedule::Row, 128, 8, 1, 1, 4), 32, Dtype::F32);
  EXPECT_EQ(*std::max_element(row.warp_work.begin(), row.warp_work.end()), 1 + 3000);
  const WorkEstimate nonzero = estimate_sddmm(s, config(SddmmSchedule::Nonzero, 128, 8, 1, 4, 1), 32, Dtype::F32);
  EXPECT_EQ(*std::max_element(nonzero.warp_work.begin(), nonzero.warp_work.end()), 32 / 8 + 4);  // K over 8 lanes, 4 sums
}

TEST(SddmmEstimate, MinBytesReadStructureAndOperandsOnce) {
  const CsrF64 s = random_csr(300, 200, 10, 5);
  const double nnz = static_cast<double>(s.nnz());
  EXPECT_DOUBLE_EQ(sddmm_min_bytes(s, 16, Dtype::F64), 301 * 4 + nnz * 4 + 500 * 16 * 8 + nnz * 8);
}

}  // namespace
}  // namespace ktune
