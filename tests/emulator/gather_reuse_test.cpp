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

}  // namespace
}  // namespace ktune
