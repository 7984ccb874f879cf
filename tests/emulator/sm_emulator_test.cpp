#include "model/emulator/sm_emulator.h"

#include <gtest/gtest.h>

#include <map>

#include "synthetic.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using test::barrier_op;
using test::chains_block;
using test::op_on;
using test::single_scheduler;

std::pair<uint32_t, uint32_t> key(uint32_t warp, uint32_t op) { return {warp, op}; }

SmRun run_one(const EmuBlock& block, const EmulatorTiming& timing, bool record = true) {
  SmRunOptions options;
  options.record_ops = record;
  return emulate_sm({&block}, timing, options);
}

// digest-000 §2.3: C independent chains of P dependent ops on one resource.
double single_resource_formula(double L, double G, int C, int P) {
  return L > C * G ? L * P + (C - 1) * G : L + (C * P - 1) * G;
}

TEST(SmEmulator, ReproducesTheSingleResourceFormulasExactly) {
  struct Case { double L, G; int C, P; };
  const Case cases[] = {{100, 2, 4, 10}, {10, 4, 8, 5}, {32, 4, 8, 6}, {500, 100, 3, 4},
                        {7, 3, 1, 9},    {20, 1, 16, 3}, {64, 8, 2, 12}};
  for (const Case& c : cases) {
    EmulatorTiming timing = single_scheduler();
    timing.table[static_cast<size_t>(Resource::Fp32)] = {c.L, c.G};
    for (bool ilp : {false, true}) {
      const EmuBlock block = chains_block(Resource::Fp32, c.C, c.P, ilp);
      const SmRun run = run_one(block, timing, false);
      EXPECT_DOUBLE_EQ(run.cycles, single_resource_formula(c.L, c.G, c.C, c.P))
          << "L=" << c.L << " G=" << c.G << " C=" << c.C << " P=" << c.P << (ilp ? " ILP" : " TLP");
    }
  }
}

// digest-000 §2.5: GM latency 500 gap 100, FU latency 100 gap 20; three warps of
// S_x1 (GM load), S_x2 (add), S_x3 (depends on S_x2).
TEST(SmEmulator, ReplaysTheChaptersWorkedExample) {
  EmulatorTiming timing = single_scheduler();
  timing.table[static_cast<size_t>(Resource::Dram)] = {500, 100};
  timing.table[static_cast<size_t>(Resource::Fp32)] = {100, 20};
  EmuBlock block;
  block.warps.resize(3);
  for (auto& w : block.warps) w.ops = {op_on(Resource::Dram), op_on(Resource::Fp32), op_on(Resource::Fp32, 1, 1)};
  const SmRun run = run_one(block, timing);
  std::map<std::pair<uint32_t, uint32_t>, OpRecord> by_statement;  // (warp, op)
  for (const OpRecord& r : run.ops) by_statement[key(r.warp, r.op)] = r;
  ASSERT_EQ(by_statement.size(), 9u);
  EXPECT_DOUBLE_EQ(by_statement[key(0, 0)].issue, 0);     // S11
  EXPECT_DOUBLE_EQ(by_statement[key(0, 0)].finish, 500);
  EXPECT_DOUBLE_EQ(by_statement[key(0, 1)].issue, 1);     // S12
  EXPECT_DOUBLE_EQ(by_statement[key(0, 1)].finish, 101);
  EXPECT_DOUBLE_EQ(by_statement[key(1, 0)].finish, 600);  // S21 waits for the GM gap
  // The text has S32 at cycle 4; one issue per cycle for S11..S32 puts it at 5. Its finish
  // is set by the FU queue either way.
  EXPECT_DOUBLE_EQ(by_statement[key(2, 1)].issue, 5);
  EXPECT_DOUBLE_EQ(by_statement[key(2, 1)].finish, 141);  // S32
  EXPECT_DOUBLE_EQ(by_statement[key(0, 2)].issue, 101);   // S13: the clock jumps to 101
  EXPECT_DOUBLE_EQ(run.cycles, 700);                   // S31 admitted at 200
}

TEST(SmEmulator, ABarrierCompletesWhenEveryWarpArrivedAndFinishedItsEarlierOps) {
  EmulatorTiming timing = single_scheduler();
  timing.table[static_cast<size_t>(Resource::Dram)] = {500, 1};
  timing.table[static_cast<size_t>(Resource::Barrier)] = {20, 1};
  EmuBlock block;
  block.warps.resize(2);
  block.warps[0].ops = {op_on(Resource::Dram), barrier_op(), op_on(Resource::IntAlu)};
  block.warps[1].ops = {op_on(Resource::IntAlu), barrier_op(), op_on(Resource::IntAlu)};
  const SmRun run = run_one(block, timing);
  std::map<std::pair<uint32_t, uint32_t>, OpRecord> at;
  for (const OpRecord& r : run.ops) at[key(r.warp, r.op)] = r;
  // Both warps arrive within a few cycles, but warp 0's load finishes at 500.
  EXPECT_LT(at[key(1, 1)].issue, 10);
  EXPECT_DOUBLE_EQ(at[key(0, 1)].finish, 520);
  EXPECT_DOUBLE_EQ(at[key(1, 1)].finish, 520);
  EXPECT_GE(at[key(0, 2)].issue, 520);
  EXPECT_GE(at[key(1, 2)].issue, 520);
  EXPECT_DOUBLE_EQ(run.transactions[static_cast<size_t>(Resource::Barrier)], 1);
}

TEST(SmEmulator, AWarpThatExitsDoesNotHoldTheBarrierOfTheOthers) {
  EmulatorTiming timing = single_scheduler();
  EmuBlock block;
  block.warps.resize(3);
  block.warps[0].ops = {op_on(Resource::IntAlu), barrier_op(), op_on(Resource::IntAlu)};
  block.warps[1].ops = {op_on(Resource::IntAlu)};  // exits early
  block.warps[2].ops = {barrier_op(), op_on(Resource::IntAlu)};
  const SmRun run = run_one(block, timing);
  EXPECT_EQ(run.ops.size(), 6u);
  EXPECT_GT(run.cycles, 0);
}

TEST(SmEmulator, BarriersAreThoseOfEachBlock) {
  EmulatorTiming timing = single_scheduler();
  timing.table[static_cast<size_t>(Resource::Dram)] = {1000, 1};
  EmuBlock slow, fast;
  slow.warps.resize(2);
  slow.warps[0].ops = {op_on(Resource::Dram), barrier_op()};
  slow.warps[1].ops = {barrier_op()};
  fast.warps.resize(2);
  fast.warps[0].ops = {barrier_op(), op_on(Resource::IntAlu)};
  fast.warps[1].ops = {barrier_op(), op_on(Resource::IntAlu)};
  SmRunOptions options;
  options.resident_blocks = 2;
  const SmRun run = emulate_sm({&slow, &fast}, timing, options);
  EXPECT_GE(run.blocks[0].end, 1000);
  EXPECT_LT(run.blocks[1].end, 50);  // not held by the other block's barrier
}

TEST(SmEmulator, TheClockNeverMovesBackwardsAndDependencesHold) {
  // Four schedulers, two resident blocks refilled from a queue of four, mixed pipes,
  // barriers and dependences: every invariant of the issue order checked on the records.
  EmulatorTiming timing = single_scheduler();
  timing.schedulers = 4;
  timing.table[static_cast<size_t>(Resource::Dram)] = {300, 3};
  timing.table[static_cast<size_t>(Resource::Shared)] = {25, 1};
  timing.table[static_cast<size_t>(Resource::Fp32)] = {4, 2};
  timing.table[static_cast<size_t>(Resource::Sfu)] = {20, 8};
  const Resource pipes[] = {Resource::Dram, Resource::Fp32, Resource::Shared, Resource::Sfu, Resource::IntAlu};
  std::vector<EmuBlock> blocks(4);
  uint32_t seed = 7;
  auto next = [&] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7fff; };
  for (EmuBlock& b : blocks) {
    b.warps.resize(6);
    for (EmuWarp& w : b.warps)
      for (uint32_t i = 0; i < 120; ++i) {
        if (i % 40 == 39) {
          w.ops.push_back(barrier_op());
          continue;
        }
        const uint32_t dep = i > 0 && next() % 2 ? i - 1 - next() % std::min<uint32_t>(i, 5) : kNoDep;
        w.ops.push_back(op_on(pipes[next() % 5], 1 + next() % 3, dep));
      }
  }
  std::vector<const EmuBlock*> queue;
  for (const EmuBlock& b : blocks) queue.push_back(&b);
  SmRunOptions options;
  options.resident_blocks = 2;
  options.record_ops = true;
  const SmRun run = emulate_sm(queue, timing, options);
  ASSERT_EQ(run.ops.size(), 4u * 6 * 120);
  std::map<std::pair<uint32_t, uint32_t>, std::vector<const OpRecord*>> by_warp;
  for (size_t i = 0; i < run.ops.size(); ++i) {
    const OpRecord& r = run.ops[i];
    if (i > 0) {
      EXPECT_GE(r.issue, run.ops[i - 1].issue) << "clock went back at record " << i;
    }
    EXPECT_GE(r.finish, r.issue);
    by_warp[{r.instance, r.warp}].push_back(&r);
  }
  for (const auto& [key, records] : by_warp) {
    const EmuWarp& w = blocks[key.first].warps[key.second];
    ASSERT_EQ(records.size(), w.ops.size());
    for (size_t i = 0; i < records.size(); ++i) {
      EXPECT_EQ(records[i]->op, i);  // in program order
      for (uint32_t d : w.ops[i].deps)
        if (d != kNoDep) {
          EXPECT_GE(records[i]->issue, records[d]->finish);
        }
    }
  }
  // The third block starts when one of the first two ends.
  EXPECT_DOUBLE_EQ(run.blocks[2].start, std::min(run.blocks[0].end, run.blocks[1].end));
  for (double u : run.utilisation) {
    EXPECT_GE(u, 0);
    EXPECT_LE(u, 1);
  }
}

TEST(SmEmulator, KTransactionsOccupyTheResourceKGaps) {
  EmulatorTiming timing = single_scheduler();
  timing.table[static_cast<size_t>(Resource::Shared)] = {30, 2};
  EmuBlock one, eight;
  one.warps.resize(1);
  eight.warps.resize(1);
  for (int i = 0; i < 50; ++i) {
    one.warps[0].ops.push_back(op_on(Resource::Shared, 1));
    eight.warps[0].ops.push_back(op_on(Resource::Shared, 8));  // an 8-way bank conflict
  }
  EXPECT_DOUBLE_EQ(run_one(one, timing, false).cycles, 30 + 49 * 2);
  EXPECT_DOUBLE_EQ(run_one(eight, timing, false).cycles, 30 + (50 * 8 - 1) * 2);
  EXPECT_DOUBLE_EQ(run_one(eight, timing, false).transactions[static_cast<size_t>(Resource::Shared)], 400);
}

TEST(SmEmulator, SchedulersShareTheSmsMemoryButNotTheirOwnPipes) {
  EmulatorTiming timing = single_scheduler();
  timing.schedulers = 4;
  timing.table[static_cast<size_t>(Resource::Fp32)] = {4, 2};
  timing.table[static_cast<size_t>(Resource::Shared)] = {4, 2};
  // Four warps, one per scheduler, 100 independent ops each.
  EmuBlock fp32, shared;
  fp32.warps.resize(4);
  shared.warps.resize(4);
  for (int w = 0; w < 4; ++w)
    for (int i = 0; i < 100; ++i) {
      fp32.warps[w].ops.push_back(op_on(Resource::Fp32));
      shared.warps[w].ops.push_back(op_on(Resource::Shared));
    }
  EXPECT_DOUBLE_EQ(run_one(fp32, timing, false).cycles, 4 + 99 * 2);     // a pipe each
  EXPECT_DOUBLE_EQ(run_one(shared, timing, false).cycles, 4 + 399 * 2);  // one LSU path
}

TEST(SmEmulator, IssueWidthAndGapLimitIssue) {
  EmulatorTiming timing = single_scheduler();
  timing.table[static_cast<size_t>(Resource::IntAlu)] = {1, 0.25};
  EmuBlock block;
  block.warps.resize(1);
  for (int i = 0; i < 100; ++i) block.warps[0].ops.push_back(op_on(Resource::IntAlu));
  EXPECT_DOUBLE_EQ(run_one(block, timing, false).cycles, 99 + 1);
  timing.issue_per_scheduler = 2;
  EXPECT_DOUBLE_EQ(run_one(block, timing, false).cycles, 99 * 0.5 + 1);
}

// Regression: with one resident block and slot refill, the next block's warps land on
// schedulers that ran dry earlier (their warp finished first) and were not looked at again,
// so those warps never issued and every block after the first took 0 cycles.
TEST(SmEmulator, ARefilledSlotRunsEveryQueuedBlockInFull) {
  EmulatorTiming timing = single_scheduler();
  timing.schedulers = 4;
  timing.table[static_cast<size_t>(Resource::Fp32)] = {10, 1};
  // Warp 0 (scheduler 0) ends after one op; warp 1 (scheduler 1) runs a chain of 20.
  EmuBlock block;
  block.warps.resize(2);
  block.warps[0].ops = {op_on(Resource::Fp32)};
  for (int i = 0; i < 20; ++i) block.warps[1].ops.push_back(op_on(Resource::Fp32, 1, i == 0 ? kNoDep : i - 1));
  const SmRun alone = run_one(block, timing, false);
  ASSERT_GT(alone.cycles, 0);

  SmRunOptions options;
  options.resident_blocks = 1;
  const SmRun run = emulate_sm({&block, &block, &block}, timing, options);
  ASSERT_EQ(run.blocks.size(), 3u);
  EXPECT_DOUBLE_EQ(run.transactions[static_cast<size_t>(Resource::Issue)], 3 * 21);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(run.blocks[i].end - run.blocks[i].start, alone.cycles) << "block " << i;
    if (i > 0) {
      EXPECT_GE(run.blocks[i].start, run.blocks[i - 1].end);  // one slot: in turn
    }
  }
  EXPECT_DOUBLE_EQ(run.cycles, 3 * alone.cycles);
}

TEST(SmEmulator, RejectsADependenceOnALaterOp) {
  EmuBlock block;
  block.warps.resize(1);
  block.warps[0].ops = {op_on(Resource::IntAlu, 1, 1), op_on(Resource::IntAlu)};
  EXPECT_THROW(run_one(block, single_scheduler()), InputError);
}

}  // namespace
}  // namespace ktune
