#include "model/emulator/cache_estimate.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "model/emulator/sector_table.h"
#include "model/emulator/sm_emulator.h"
#include "synthetic.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using test::add_load;

// Block `id` of the grid with one warp and no accesses yet.
BlockTrace one_warp_block(int64_t id) {
  BlockTrace b;
  b.block = id;
  b.warps.resize(1);
  return b;
}

// `warps` warps of `loads` independent loads, each of `sectors` fresh sectors.
BlockTrace streaming_block(int64_t id, int warps, int loads, int sectors) {
  BlockTrace b;
  b.block = id;
  b.warps.resize(warps);
  uint64_t next = static_cast<uint64_t>(id) << 20;
  for (WarpTrace& w : b.warps)
    for (int i = 0; i < loads; ++i) {
      std::vector<uint64_t> s;
      for (int k = 0; k < sectors; ++k) s.push_back(next++);
      add_load(w, s);
    }
  return b;
}

CacheContext no_caches() {
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.l2_bytes = 0;
  return c;
}

// The op's use of resource r; a default (no transactions, no cost) when it has none.
ResourceUse use_of(const EmuOp& op, Resource r) {
  for (uint8_t u = 0; u < op.use_count; ++u)
    if (op.uses[u].resource == r) return op.uses[u];
  return {r, 0, 0};
}

TEST(Coalescing, ThirtyTwoSectorsPerAccessCostThirtyTwoGaps) {
  EmulatorTiming timing = test::single_scheduler();
  timing.table[static_cast<size_t>(Resource::Dram)] = {400, 4};
  SmRunOptions options;
  const int warps = 4, loads = 25;
  double cycles[2];
  for (int coalesced = 0; coalesced < 2; ++coalesced) {
    const int sectors = coalesced ? 1 : 32;
    const PreparedSamples p = prepare_samples({streaming_block(0, warps, loads, sectors)}, no_caches());
    EXPECT_DOUBLE_EQ(p.cache.dram_sectors, warps * loads * sectors);
    const SmRun run = emulate_sm({&p.blocks[0]}, timing, options);
    // A throughput-bound stream: T = L + (sectors - 1) x G.
    EXPECT_DOUBLE_EQ(run.cycles, 400 + (warps * loads * sectors - 1) * 4.0);
    cycles[coalesced] = run.cycles - 400 + 4;  // the DRAM pipe's busy time
  }
  EXPECT_DOUBLE_EQ(cycles[0] / cycles[1], 32);
}

// The gather benchmarks' rule (gpu_spec.h, LineWeights): 32 sectors in 8 full lines cost 32
// gaps whatever the weight; in 32 lines, 32 (1 + 3w/4). Transactions stay sectors.
TEST(Coalescing, ScatteredLinesCostTheirLineWeight) {
  const double w = 2;
  CacheContext c = no_caches();
  c.line_weights.dram = w;
  const auto dram_use = [&](uint64_t stride) {
    BlockTrace b;
    b.warps.resize(1);
    std::vector<uint64_t> sectors;
    for (uint64_t k = 0; k < 32; ++k) sectors.push_back(stride == 1 ? k : k * stride);
    add_load(b.warps[0], sectors);
    const PreparedSamples p = prepare_samples({b}, c);
    EXPECT_DOUBLE_EQ(p.cache.dram_sectors, 32);
    const ResourceUse dram = use_of(p.blocks[0].warps[0].ops[0], Resource::Dram);
    EXPECT_EQ(dram.count, 32u);
    return dram.cost;
  };
  EXPECT_DOUBLE_EQ(dram_use(1), 32);                   // 8 lines of 4 sectors
  EXPECT_DOUBLE_EQ(dram_use(4), 32 * (1 + 3 * w / 4));  // one sector in each of 32 lines
  EXPECT_DOUBLE_EQ(dram_use(2), 16 * w + 32 * (1 - w / 4));  // two per line: 16 lines
  // The emulator holds the pipe for the cost, not the sector count.
  EmulatorTiming timing = test::single_scheduler();
  timing.table[static_cast<size_t>(Resource::Dram)] = {400, 4};
  BlockTrace b;
  b.warps.resize(1);
  std::vector<uint64_t> scattered;
  for (uint64_t k = 0; k < 32; ++k) scattered.push_back(k * 4);
  add_load(b.warps[0], scattered);
  const PreparedSamples p = prepare_samples({b}, c);
  const SmRun run = emulate_sm({&p.blocks[0]}, timing, {});
  EXPECT_DOUBLE_EQ(run.busy_cycles[static_cast<size_t>(Resource::Dram)], 32 * (1 + 3 * w / 4) * 4);
  EXPECT_DOUBLE_EQ(run.transactions[static_cast<size_t>(Resource::Dram)], 32);
}

// Device memory charges a line once per block: lanes that walk their rows take one sector of
// each line per access, and the later sectors of those lines come from the same open rows.
TEST(Coalescing, DeviceMemoryChargesALineOncePerBlock) {
  const double w = 2;
  CacheContext c = no_caches();
  c.line_weights.dram = w;
  BlockTrace b;
  b.warps.resize(1);
  for (uint64_t k = 0; k < 4; ++k) {  // access k: sector k of each of 32 lines
    std::vector<uint64_t> sectors;
    for (uint64_t line = 0; line < 32; ++line) sectors.push_back(line * 4 + k);
    add_load(b.warps[0], sectors);
  }
  const PreparedSamples p = prepare_samples({b}, c);
  const auto& ops = p.blocks[0].warps[0].ops;
  const auto dram_cost = [](const EmuOp& op) { return use_of(op, Resource::Dram).cost; };
  EXPECT_DOUBLE_EQ(dram_cost(ops[0]), 32 * (1 - w / 4) + 32 * w);  // the lines' first requests
  for (size_t k = 1; k < 4; ++k) EXPECT_DOUBLE_EQ(dram_cost(ops[k]), 32 * (1 - w / 4)) << k;
  // Over the four accesses: 128 sectors in 32 lines cost what a stream of them does.
  double total = 0;
  for (const EmuOp& op : ops) total += dram_cost(op);
  EXPECT_DOUBLE_EQ(total, 128);
  // Another block asks for the same lines afresh.
  BlockTrace other = b;
  other.block = 1;
  const PreparedSamples two = prepare_samples({b, other}, c);
  EXPECT_DOUBLE_EQ(dram_cost(two.blocks[1].warps[0].ops[0]), 32 * (1 - w / 4) + 32 * w);
  // L2's tag pipe takes each access's 32 lines as 32 requests: it has no open rows.
  for (size_t k = 0; k < 4; ++k) EXPECT_DOUBLE_EQ(use_of(ops[k], Resource::L2Tag).cost, 32) << k;
}

// Every sector an op sends past L1 is one of L2's data path and, per 128-byte line, one request
// of its tag pipe, whether L2 serves it or device memory does (ncu counts both at L2); L1 takes
// every sector, hits and misses.
TEST(Coalescing, L2TakesARequestPerLineAndEverySectorPastL1) {
  CacheContext c = no_caches();
  BlockTrace b = one_warp_block(0);
  std::vector<uint64_t> streamed, lone;
  for (uint64_t k = 0; k < 32; ++k) {
    streamed.push_back(k);          // 8 lines of 4 sectors
    lone.push_back(1000 + 4 * k);   // one sector in each of 32 lines
  }
  add_load(b.warps[0], streamed);
  add_load(b.warps[0], lone);
  const PreparedSamples p = prepare_samples({b}, c);
  const auto& ops = p.blocks[0].warps[0].ops;
  EXPECT_EQ(use_of(ops[0], Resource::L2Tag).count, 8u);
  EXPECT_EQ(use_of(ops[1], Resource::L2Tag).count, 32u);
  for (const EmuOp& op : ops) {
    EXPECT_DOUBLE_EQ(use_of(op, Resource::L2Tag).cost, use_of(op, Resource::L2Tag).count);
    EXPECT_EQ(use_of(op, Resource::L2).count, 32u);  // served by device memory, through L2
    EXPECT_DOUBLE_EQ(use_of(op, Resource::L2).cost, 32);
    EXPECT_EQ(use_of(op, Resource::L1).count, 32u);
    EXPECT_EQ(use_of(op, Resource::Dram).count, 32u);
  }
  // Sectors L1 serves reach neither of L2's pipes.
  CacheContext cached = no_caches();
  cached.measured = CacheRates{1.0, 0.0};
  const PreparedSamples hits = prepare_samples({b}, cached);
  for (const EmuOp& op : hits.blocks[0].warps[0].ops) {
    EXPECT_EQ(use_of(op, Resource::L1).count, 32u);
    EXPECT_EQ(use_of(op, Resource::L2Tag).count, 0u);
    EXPECT_EQ(use_of(op, Resource::L2).count, 0u);
  }
  // A gather's time is its requests' at the tag pipe when that is slower than the data path.
  EmulatorTiming timing = test::single_scheduler();
  timing.table[static_cast<size_t>(Resource::L2Tag)] = {300, 2};
  timing.table[static_cast<size_t>(Resource::L2)] = {300, 1};
  timing.table[static_cast<size_t>(Resource::Dram)] = {300, 0.01};
  const SmRun run = emulate_sm({&p.blocks[0]}, timing, {});
  EXPECT_DOUBLE_EQ(run.busy_cycles[static_cast<size_t>(Resource::L2Tag)], (8 + 32) * 2);
  EXPECT_DOUBLE_EQ(run.busy_cycles[static_cast<size_t>(Resource::L2)], 64);
}

TEST(CacheEstimate, StreamedPrivateSectorsGoToDram) {
  CacheContext c;
  c.l1_bytes_per_block = 1e6;
  c.l2_bytes = 1e9;
  c.grid_scale = 100;
  const PreparedSamples p = prepare_samples({streaming_block(0, 2, 50, 4), streaming_block(1, 2, 50, 4)}, c);
  EXPECT_DOUBLE_EQ(p.cache.dram_sectors, 800);
  EXPECT_DOUBLE_EQ(p.cache.l1_hit_rate, 0);
  EXPECT_DOUBLE_EQ(p.cache.l2_hit_rate, 0);
  EXPECT_DOUBLE_EQ(p.cache.grid_footprint_bytes, 800 * 32 * 100);
}

// One block reading the same 64 sectors `rounds` times.
BlockTrace rereading_block(int64_t id, int rounds, uint64_t base) {
  BlockTrace b = one_warp_block(id);
  for (int r = 0; r < rounds; ++r)
    for (uint64_t s = 0; s < 64; ++s) add_load(b.warps[0], {base + s});
  return b;
}

TEST(CacheEstimate, ReTouchesWithinABlockHitL1WhenItsFootprintFits) {
  CacheContext c;
  c.l1_bytes_per_block = 64 * 32;
  c.l2_bytes = 1e9;
  const PreparedSamples fits = prepare_samples({rereading_block(0, 5, 0)}, c);
  EXPECT_DOUBLE_EQ(fits.cache.l1_sectors, 4 * 64);  // all but the first round
  EXPECT_DOUBLE_EQ(fits.cache.dram_sectors, 64);
  c.l1_bytes_per_block = 8 * 32;  // an eighth of the footprint: most re-touches miss L1 ...
  const PreparedSamples thrashes = prepare_samples({rereading_block(0, 5, 0)}, c);
  EXPECT_LT(thrashes.cache.l1_sectors, 0.25 * 4 * 64);
  EXPECT_DOUBLE_EQ(thrashes.cache.dram_sectors, 64);  // ... and hit L2, which just had them
  EXPECT_GT(thrashes.cache.l2_sectors, 0.75 * 4 * 64);
}

// A thread walking a long row re-reads each sector at once: L1 keeps it, however much larger
// than L1 the block's whole footprint is.
TEST(CacheEstimate, ShortReuseDistancesHitL1WhateverTheFootprint) {
  CacheContext c;
  c.l1_bytes_per_block = 64 * 32;
  c.l2_bytes = 1e9;
  BlockTrace b;
  b.warps.resize(1);
  for (uint64_t s = 0; s < 6400; ++s) {  // 100x the L1 share, each sector twice in a row
    add_load(b.warps[0], {s});
    add_load(b.warps[0], {s});
  }
  const PreparedSamples p = prepare_samples({b}, c);
  EXPECT_DOUBLE_EQ(p.cache.l1_sectors, 6400);
  EXPECT_DOUBLE_EQ(p.cache.dram_sectors, 6400);
}

// One heavy sample must not stand for every resident block: the resident window is the
// resident blocks times the typical block's footprint (footprint per unit of work x the grid's
// work per block), so a re-read the typical window keeps in L2 hits.
TEST(CacheEstimate, TheResidentWindowIsTypicalBlocksNotTheHeaviestSample) {
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.grid_scale = 10;
  c.grid_blocks = 1000;
  c.resident_blocks = 100;
  BlockTrace heavy = rereading_block(0, 1, 0);
  heavy.warps[0] = WarpTrace{};
  for (int round = 0; round < 2; ++round)
    for (uint64_t s = 0; s < 100000; ++s) add_load(heavy.warps[0], {s});
  const std::vector<BlockTrace> samples = {heavy, rereading_block(500, 1, 1 << 24)};
  // Typical footprint: (100000 + 64) x 10 / 1000 sectors; x 100 resident: 32 MB. The plain mean
  // of the two samples would make it 160 MB.
  c.l2_bytes = 64e6;
  const PreparedSamples p = prepare_samples(samples, c);
  EXPECT_NEAR(p.cache.resident_footprint_bytes, (100000 + 64) * 10.0 / 1000 * 100 * 32, 1);
  EXPECT_DOUBLE_EQ(p.cache.l2_sectors, 100000);  // every re-read of the heavy block
}

// Resident blocks that gather from one vector share its sectors: their window holds their own
// streamed sectors each, and the vector once (x of a uniform random matrix, 4 MB, fits in L2
// however many blocks read it at the same time).
TEST(CacheEstimate, ResidentBlocksShareTheVectorTheyGather) {
  std::vector<BlockTrace> samples;
  for (int64_t b = 0; b < 4; ++b) {
    BlockTrace t = one_warp_block(b);
    for (uint64_t s = 0; s < 100; ++s) {  // the block's own stream at pc 1
      add_load(t.warps[0], {(1u << 30) + 100 * static_cast<uint64_t>(b) + s});
      t.warps[0].ops.back().pc = 1;
    }
    for (uint64_t i = 0; i < 200; ++i) {  // 200 sectors gathered at pc 2 from a 10000-sector vector
      add_load(t.warps[0], {(i * 7919 + 31 * static_cast<uint64_t>(b)) % 10000});
      t.warps[0].ops.back().pc = 2;
    }
    samples.push_back(t);
  }
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.l2_bytes = 1e9;
  c.grid_scale = 1000;
  c.grid_blocks = 4000;
  c.resident_blocks = 2000;
  const PreparedSamples p = prepare_samples(samples, c);
  // Per typical block 100 streamed and 200 gathered sectors: 2000 resident blocks stream
  // 200000 sectors between them, and gather from the one 10000-sector vector (not 400000).
  EXPECT_NEAR(p.cache.resident_footprint_bytes, (2000.0 * 100 + 10000) * 32, 2000 * 32);
}

TEST(CacheEstimate, SectorsSharedAcrossBlocksHitL2UnlessItIsTooSmall) {
  // Four sampled blocks of a four-block grid read the same 2000 sectors once each: one
  // block in four brings a sector in, the others find it in L2.
  std::vector<BlockTrace> blocks;
  for (int b = 0; b < 4; ++b) {
    BlockTrace t = one_warp_block(b);
    for (uint64_t s = 0; s < 2000; ++s) add_load(t.warps[0], {s});
    blocks.push_back(t);
  }
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.l2_bytes = 1e9;
  c.grid_scale = 1;
  const PreparedSamples p = prepare_samples(blocks, c);
  EXPECT_NEAR(p.cache.l2_hit_rate, 0.75, 0.03);
  c.grid_scale = 1000;  // a huge grid of blocks sharing them: nearly always in L2
  EXPECT_GT(prepare_samples(blocks, c).cache.l2_hit_rate, 0.99);
  c.l2_bytes = 2000 * 32 / 10;  // a tenth of the footprint fits
  EXPECT_NEAR(prepare_samples(blocks, c).cache.l2_hit_rate, 0.1, 0.03);
}

// A grid far larger than L2 whose blocks each re-read their own 64 sectors: the re-reads
// come a few instructions apart, while only the blocks resident together touch memory, so L2
// still holds them whatever the whole grid's footprint.
TEST(CacheEstimate, ReTouchesStayInL2WhenTheResidentBlocksFitEvenIfTheGridDoesNot) {
  CacheContext c;
  c.l1_bytes_per_block = 0;  // every re-touch misses L1
  c.l2_bytes = 64 * 32 * 100;
  c.grid_scale = 1e6;        // grid footprint 10^4 x L2
  c.resident_blocks = 50;    // the resident blocks' footprint: half of L2
  const std::vector<BlockTrace> samples = {rereading_block(0, 5, 0), rereading_block(1000, 5, 1 << 20)};
  const PreparedSamples fits = prepare_samples(samples, c);
  EXPECT_DOUBLE_EQ(fits.cache.dram_sectors, 2 * 64);           // the first reads only
  EXPECT_DOUBLE_EQ(fits.cache.l2_sectors, 2 * 4 * 64);
  c.resident_blocks = 200;   // twice L2: half the re-reads go to DRAM
  const PreparedSamples thrashes = prepare_samples(samples, c);
  EXPECT_NEAR(thrashes.cache.l2_hit_rate * (2 * 5 * 64) / (2 * 4 * 64), 0.5, 0.06);
}

// Neighbouring blocks (resident together) sharing sectors, in a huge grid: each shared
// sector is brought in by one of the two and found in L2 by the other, whatever the grid's
// size; distant blocks sharing them say the grid's many touchers find them.
TEST(CacheEstimate, NeighboursShareThroughL2AsThemselvesNotAsTheWholeGrid) {
  auto reader = [](int64_t id) {
    BlockTrace t = one_warp_block(id);
    for (uint64_t s = 0; s < 2000; ++s) add_load(t.warps[0], {s});
    return t;
  };
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.l2_bytes = 1e9;
  c.grid_scale = 1e4;
  c.resident_blocks = 10;
  const PreparedSamples near = prepare_samples({reader(500), reader(501)}, c);
  EXPECT_NEAR(near.cache.l2_hit_rate, 0.5, 0.03);
  const PreparedSamples far = prepare_samples({reader(500), reader(90000)}, c);
  EXPECT_GT(far.cache.l2_hit_rate, 0.99);
}

TEST(CacheEstimate, MeasuredRatesReplaceTheEstimate) {
  CacheContext c = no_caches();
  c.measured = CacheRates{0.5, 0.5};
  const PreparedSamples p = prepare_samples({streaming_block(0, 4, 500, 1)}, c);
  EXPECT_NEAR(p.cache.l1_hit_rate, 0.5, 0.05);
  EXPECT_NEAR(p.cache.l2_hit_rate, 0.5, 0.05);
}

TEST(CacheEstimate, IsDeterministic) {
  CacheContext c;
  c.l1_bytes_per_block = 16 * 32;
  c.l2_bytes = 1e9;
  const PreparedSamples a = prepare_samples({rereading_block(0, 5, 0)}, c);
  const PreparedSamples b = prepare_samples({rereading_block(0, 5, 0)}, c);
  EXPECT_EQ(a.cache.l1_sectors, b.cache.l1_sectors);
  EXPECT_EQ(a.blocks[0].transactions, b.blocks[0].transactions);
}

TEST(CacheEstimate, RejectsSectorsBeyondTheWarpsList) {
  BlockTrace b = streaming_block(3, 1, 2, 2);
  b.warps[0].ops[1].sector_begin = 3;
  try {
    prepare_samples({b}, no_caches());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("block 3"), std::string::npos);
  }
}

// A random gather over a vector that fits in L2: 8 sampled blocks see each sector about once,
// but the grid (scale 200) reads each about 200 x 8 x 64 / 4096 = 25 times, so only ~1/25 of
// the reads go to DRAM. The same reads with the vector far larger than L2 stay in DRAM, and a
// stream (disjoint ranges per block) gets no such reuse.
BlockTrace gather_block(int64_t id, uint64_t region_sectors, uint64_t base) {
  BlockTrace b;
  b.block = id * 1000;  // far apart: no neighbour sharing
  b.warps.resize(2);
  uint64_t state = static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ULL + 1;
  for (WarpTrace& w : b.warps)
    for (int i = 0; i < 32; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      add_load(w, {base + (state >> 33) % region_sectors});
      w.ops.back().pc = 7;
    }
  return b;
}

TEST(CacheEstimate, RandomGathersOfAVectorThatFitsInL2HitAfterTheFirstRead) {
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.grid_scale = 200;
  c.resident_blocks = 10;
  const uint64_t region = 4096;  // 128 KiB
  std::vector<BlockTrace> samples;
  for (int64_t id = 0; id < 8; ++id) samples.push_back(gather_block(id, region, 1u << 20));
  c.l2_bytes = 1e9;
  const PreparedSamples fits = prepare_samples(samples, c);
  const double reads = fits.cache.load_sectors;
  ASSERT_EQ(reads, 8 * 64);
  const double expected_dram = reads * region / (reads * c.grid_scale);  // one first read per sector
  EXPECT_NEAR(fits.cache.dram_sectors, expected_dram, 0.1 * reads);
  EXPECT_LT(fits.cache.dram_sectors, 0.15 * reads);

  c.l2_bytes = 32.0 * region / 100;  // the vector is 100x L2
  const PreparedSamples spills = prepare_samples(samples, c);
  EXPECT_GT(spills.cache.dram_sectors, 0.95 * reads);

  std::vector<BlockTrace> streams;
  for (int64_t id = 0; id < 8; ++id) streams.push_back(gather_block(id, 64, (1u << 20) + id * 64));
  c.l2_bytes = 1e9;
  const PreparedSamples streamed = prepare_samples(streams, c);
  // Each block's reads re-touch its own 64 sectors (L2 hits); none is shared across blocks.
  double first_touches = 0;
  for (const BlockTrace& b : streams) {
    std::vector<uint64_t> seen;
    for (const WarpTrace& w : b.warps) seen.insert(seen.end(), w.sectors.begin(), w.sectors.end());
    std::sort(seen.begin(), seen.end());
    first_touches += static_cast<double>(std::unique(seen.begin(), seen.end()) - seen.begin());
  }
  EXPECT_DOUBLE_EQ(streamed.cache.dram_sectors, first_touches);
}

// Each L2 partition caches what its own SMs read, and every SM gathers from x: a vector that
// fits in L2 once but not once per partition keeps missing (fp64 x of a 4M-row matrix, 32 MB,
// on the H200's 2 x 30 MB).
TEST(CacheEstimate, AVectorGatheredOnEverySmIsHeldOncePerL2Partition) {
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.grid_scale = 200;
  c.resident_blocks = 10;
  const uint64_t region = 4096;
  std::vector<BlockTrace> samples;
  for (int64_t id = 0; id < 8; ++id) samples.push_back(gather_block(id, region, 1u << 20));
  c.l2_bytes = 1.5 * 32 * region;
  const PreparedSamples one = prepare_samples(samples, c);
  const double reads = one.cache.load_sectors;
  EXPECT_LT(one.cache.dram_sectors, 0.15 * reads);  // fits: first reads only

  c.l2_partitions = 2;
  const PreparedSamples two = prepare_samples(samples, c);
  // Each sector is gathered 25 times over the grid: a read hits with (1 - 1/25) x 1.5 / 2.
  EXPECT_NEAR(two.cache.dram_sectors / reads, 1 - 0.96 * 0.75, 0.06);
}

// SpMM's k slice: blocks gather a 4-sector band of 32-sector rows. L2 (a quarter of the span)
// holds the band the grid reads at once, so reads after the first hit; the same reads spread
// over whole rows of the span keep missing.
TEST(CacheEstimate, AGatheredBandHitsWhereTheWholeRowsWouldNot) {
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.grid_scale = 200;
  c.resident_blocks = 10;
  const uint64_t rows = 256, pitch = 32, base = 1u << 20;
  c.l2_bytes = 32.0 * rows * pitch / 4;
  std::vector<BlockTrace> band, whole;
  for (int64_t id = 0; id < 8; ++id) {
    BlockTrace b, w;
    b.block = w.block = id * 1000;
    b.warps.resize(1);
    w.warps.resize(1);
    uint64_t state = static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ULL + 1;
    for (int i = 0; i < 16; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const uint64_t row = (state >> 33) % rows;
      for (uint64_t s = 0; s < 4; ++s) {
        add_load(b.warps[0], {base + row * pitch + 8 + s});
        b.warps[0].ops.back().pc = 7;
        add_load(w.warps[0], {base + row * pitch + 8 * s + (state >> 40) % 8});
        w.warps[0].ops.back().pc = 7;
      }
    }
    band.push_back(b);
    whole.push_back(w);
  }
  const PreparedSamples banded = prepare_samples(band, c), spread = prepare_samples(whole, c);
  const double reads = banded.cache.load_sectors;
  ASSERT_EQ(reads, 8 * 64);
  EXPECT_LT(banded.cache.dram_sectors, 0.2 * reads);
  EXPECT_GT(spread.cache.dram_sectors, 0.6 * reads);
}

// Between two reads of a gathered sector the matrix streams past; plain loads leave those lines
// in L2 at the vector's priority, evict-first ones (ld.global.cs) do not.
TEST(CacheEstimate, APlainStreamPushesTheGatheredVectorOutAndAnEvictFirstOneDoesNot) {
  const uint64_t region = 4096;
  auto samples_with_stream = [&](bool evict_first) {
    std::vector<BlockTrace> samples;
    for (int64_t id = 0; id < 8; ++id) {
      BlockTrace b = gather_block(id, region, 1u << 20);
      for (WarpTrace& w : b.warps)
        for (uint64_t k = 0; k < 64; ++k) {  // 64 streamed sectors a warp, its own
          add_load(w, {(uint64_t{1} << 30) + static_cast<uint64_t>(id) * 4096 + (&w - b.warps.data()) * 64 + k});
          w.ops.back().pc = 9;
          w.ops.back().evict_first = evict_first;
        }
      samples.push_back(b);
    }
    return samples;
  };
  CacheContext c;
  c.l1_bytes_per_block = 0;
  c.grid_scale = 200;
  c.resident_blocks = 10;
  c.l2_bytes = 1.5 * 32 * region;  // the vector fits, with half of it to spare
  const PreparedSamples plain = prepare_samples(samples_with_stream(false), c);
  const PreparedSamples first = prepare_samples(samples_with_stream(true), c);
  const double gathers = 8 * 64;
  const double streamed = 8 * 2 * 64;  // cold either way
  // The grid streams 200 x 1024 sectors while gathering each vector sector about 25 times:
  // some 8000 of them pass between two reads, twice the vector, and a plain stream leaves about
  // half of the vector in L2; an evict-first one leaves all of it.
  EXPECT_GT((plain.cache.dram_sectors - streamed) / gathers, 0.35);
  EXPECT_LT((plain.cache.dram_sectors - streamed) / gathers, 0.65);
  EXPECT_LT(first.cache.dram_sectors - streamed, 0.15 * gathers);
}

// A sector's entry names sampled blocks in 16 bits: more samples than that is refused, the
// most it takes still counts every block as its own.
TEST(CacheEstimate, SampleCountsBeyondTheSectorEntryAreRefused) {
  std::vector<BlockTrace> samples;
  for (int64_t b = 0; b < SectorEntry::kNoBlock - 1; ++b) {
    samples.push_back(one_warp_block(b));
    add_load(samples.back().warps[0], {7});  // every block reads one shared sector
  }
  const PreparedSamples p = prepare_samples(samples, no_caches());
  EXPECT_EQ(p.blocks.size(), samples.size());
  EXPECT_DOUBLE_EQ(p.cache.load_sectors, static_cast<double>(samples.size()));
  samples.push_back(one_warp_block(SectorEntry::kNoBlock));
  EXPECT_THROW(prepare_samples(samples, no_caches()), InputError);
}

}  // namespace
}  // namespace ktune
