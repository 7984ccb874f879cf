// Which loads gather from a vector, and how often the grid reads each sector of it.
#include "model/emulator/gather_reuse.h"

#include <gtest/gtest.h>

#include "synthetic.h"

namespace ktune {
namespace {

using test::add_load;

// A block whose one warp loads `sectors` one at a time at instruction `pc`.
BlockTrace reading(int64_t id, uint32_t pc, const std::vector<uint64_t>& sectors) {
  BlockTrace b;
  b.block = id;
  b.warps.resize(1);
  for (uint64_t s : sectors) {
    add_load(b.warps[0], {s});
    b.warps[0].ops.back().pc = pc;
  }
  return b;
}

// Sectors from the lowest to the highest the blocks read.
uint64_t band_span(const std::vector<BlockTrace>& blocks) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const BlockTrace& b : blocks)
    for (uint64_t s : b.warps[0].sectors) lo = std::min(lo, s), hi = std::max(hi, s);
  return hi - lo + 1;
}

// `n` sectors spread evenly over [lo, lo + span).
std::vector<uint64_t> spread(uint64_t lo, uint64_t span, int n) {
  std::vector<uint64_t> s;
  for (int i = 0; i < n; ++i) s.push_back(lo + span * static_cast<uint64_t>(i) / static_cast<uint64_t>(n));
  s.push_back(lo + span - 1);  // the range reaches the end
  return s;
}

TEST(GatherReuse, LoadsOfOneVectorPoolTheirReads) {
  // A vector of 1000 sectors: four blocks read it at pc 3 (100 reads each), two others at pc 5
  // (10 reads each, as a path only some samples take). Both loads read the grid's reads of
  // the whole vector, not each its own.
  std::vector<BlockTrace> samples;
  for (int b = 0; b < 4; ++b) samples.push_back(reading(b, 3, spread(0, 1000, 99)));
  for (int b = 4; b < 6; ++b) samples.push_back(reading(b, 5, spread(0, 1000, 9)));
  const double scale = 50;
  const GatherReuse g(samples, scale);
  const double reads = 4 * 100 + 2 * 10;
  EXPECT_DOUBLE_EQ(g.reads_per_sector(3), reads * scale / 1000);
  EXPECT_DOUBLE_EQ(g.reads_per_sector(5), g.reads_per_sector(3));
  EXPECT_DOUBLE_EQ(g.region_bytes(5), 1000 * 32);
  EXPECT_DOUBLE_EQ(g.live_share(5), 1);  // read whole
  EXPECT_DOUBLE_EQ(g.vector_bytes(), 1000 * 32);  // once, though two loads read it
}

TEST(GatherReuse, SeparateVectorsKeepTheirOwnReads) {
  std::vector<BlockTrace> samples;
  for (int b = 0; b < 4; ++b) {
    BlockTrace t = reading(b, 3, spread(0, 1000, 99));
    const BlockTrace other = reading(b, 5, spread(1 << 20, 500, 49));
    for (const TraceOp& op : other.warps[0].ops) {
      add_load(t.warps[0], {other.warps[0].sectors[op.sector_begin]});
      t.warps[0].ops.back().pc = 5;
    }
    samples.push_back(t);
  }
  const GatherReuse g(samples, 10);
  EXPECT_DOUBLE_EQ(g.reads_per_sector(3), 4 * 100 * 10 / 1000.0);
  EXPECT_DOUBLE_EQ(g.reads_per_sector(5), 4 * 50 * 10 / 500.0);
  EXPECT_DOUBLE_EQ(g.vector_bytes(), (1000 + 500) * 32);
}

TEST(GatherReuse, SparseReadsOfDisjointRangesGatherDenseOnesStream) {
  // Four blocks, each over its own 1000-sector window (no overlap): picking 20 sectors out of
  // it is a gather (a power-law row block's columns); reading all of it is a stream.
  std::vector<BlockTrace> sparse, dense;
  for (int b = 0; b < 4; ++b) {
    sparse.push_back(reading(b, 3, spread(1000 * b, 1000, 19)));
    std::vector<uint64_t> all;
    for (uint64_t s = 0; s < 1000; ++s) all.push_back(1000 * b + s);
    dense.push_back(reading(b, 3, all));
  }
  EXPECT_GT(GatherReuse(sparse, 100).reads_per_sector(3), 0);
  EXPECT_DOUBLE_EQ(GatherReuse(dense, 100).reads_per_sector(3), 0);
  EXPECT_DOUBLE_EQ(GatherReuse(dense, 100).vector_bytes(), 0);
}

TEST(GatherReuse, BlocksGatheringABandOfEachRowHoldOnlyTheBandLive) {
  // Rows of 32 sectors; every block gathers 40 rows' sectors 8..11 (a quarter of B's columns
  // in SpMM's k slice, 128 of 512 bytes): L2 holds that eighth of the region at once, plus
  // the share of the grid resident beside it. Rows read whole are live whole.
  const uint64_t pitch = 32, rows = 1000;
  std::vector<BlockTrace> band, whole;
  for (int b = 0; b < 4; ++b) {
    std::vector<uint64_t> banded, full;
    for (int i = 0; i < 40; ++i) {
      const uint64_t row = (static_cast<uint64_t>(b) * 7919 + static_cast<uint64_t>(i) * 104729) % rows;
      for (uint64_t s = 8; s < 12; ++s) banded.push_back(row * pitch + s);
      for (uint64_t s = 0; s < pitch; ++s) full.push_back(row * pitch + s);
    }
    band.push_back(reading(b, 3, banded));
    whole.push_back(reading(b, 3, full));
  }
  const double resident_share = 0.01;
  const GatherReuse banded(band, 100, resident_share), full(whole, 100, resident_share);
  ASSERT_GT(banded.reads_per_sector(3), 0);
  const double span = 32.0 * static_cast<double>(band_span(band));
  EXPECT_DOUBLE_EQ(banded.region_bytes(3), span);
  EXPECT_NEAR(banded.live_share(3), 4.0 / 32 + resident_share, 1e-9);
  EXPECT_NEAR(banded.live_vector_bytes(), span * (4.0 / 32 + resident_share), 1e-6 * span);
  EXPECT_DOUBLE_EQ(full.live_share(3), 1);
  EXPECT_DOUBLE_EQ(full.live_vector_bytes(), full.vector_bytes());
}

}  // namespace
}  // namespace ktune
