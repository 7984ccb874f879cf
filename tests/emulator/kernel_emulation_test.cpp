#include "model/emulator/kernel_emulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "model/emulator/block_schedule.h"
#include "synthetic.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using test::add_load;
using test::trace_op;

// `warps` warps of `iterations` x (a streamed load, an FMA that uses it).
BlockTrace work_block(int64_t id, int warps, int iterations) {
  BlockTrace b;
  b.block = id;
  b.warps.resize(warps);
  uint64_t next = static_cast<uint64_t>(id) << 20;
  for (WarpTrace& w : b.warps)
    for (int i = 0; i < iterations; ++i) {
      add_load(w, {next++});
      w.ops.push_back(trace_op(OpClass::Fp32, 1, static_cast<uint32_t>(w.ops.size() - 1)));
    }
  return b;
}

KernelEmulationInput grid_of(int64_t blocks, std::vector<BlockTrace> samples) {
  KernelEmulationInput in;
  in.gpu = test::simple_gpu();
  in.samples = std::move(samples);
  in.block_weights.assign(static_cast<size_t>(blocks), 1.0);
  in.threads_per_block = 128;
  in.usage.registers = 32;
  return in;
}

TEST(TimeFit, RecoversALineAndStaysNonNegative) {
  const TimeFit line = fit_time_by_weight({1, 2, 4}, {30, 50, 90});
  EXPECT_NEAR(line.intercept, 10, 1e-9);
  EXPECT_NEAR(line.slope, 20, 1e-9);
  const TimeFit flat = fit_time_by_weight({3, 3}, {10, 20});
  EXPECT_DOUBLE_EQ(flat(100), 15);
  const TimeFit origin = fit_time_by_weight({1, 2}, {1, 100});  // would cross below zero
  EXPECT_DOUBLE_EQ(origin.intercept, 0);
  EXPECT_GT(origin.slope, 0);
}

TEST(TimeFit, WeightAndSpanSplitTheTwoCauses) {
  // time = 100 + 2 x weight + 50 x span, with weight and span varying apart.
  const std::vector<double> w = {100, 400, 100, 400, 250, 50}, s = {1, 1, 30, 30, 10, 60};
  std::vector<double> t;
  for (size_t i = 0; i < w.size(); ++i) t.push_back(100 + 2 * w[i] + 50 * s[i]);
  const TimeFit fit = fit_time_by_weight_and_span(w, s, t);
  EXPECT_NEAR(fit.intercept, 100, 1e-6);
  EXPECT_NEAR(fit.slope, 2, 1e-9);
  EXPECT_NEAR(fit.span_slope, 50, 1e-9);
  EXPECT_NEAR(fit(1000, 100), 100 + 2000 + 5000, 1e-6);
  // Longer spans that run shorter: no negative term, the span drops out.
  const TimeFit no_span = fit_time_by_weight_and_span({1, 2, 4}, {9, 5, 1}, {30, 50, 90});
  EXPECT_DOUBLE_EQ(no_span.span_slope, 0);
  EXPECT_NEAR(no_span(3), 70, 1e-9);
  // Equal spans say nothing: the fit is the weight's line.
  const TimeFit flat_span = fit_time_by_weight_and_span({1, 2, 4}, {7, 7, 7}, {30, 50, 90});
  for (double x : {1.0, 2.0, 4.0}) EXPECT_NEAR(flat_span(x, 7), fit_time_by_weight({1, 2, 4}, {30, 50, 90})(x), 1e-9);
  // Nothing to fit: the mean.
  EXPECT_DOUBLE_EQ(fit_time_by_weight_and_span({3}, {2}, {40})(3, 2), 40);
  EXPECT_THROW(fit_time_by_weight_and_span({1, 2}, {1}, {3, 4}), InputError);
  EXPECT_THROW(fit_time_by_weight_and_span({}, {}, {}), InputError);
}

TEST(GridMakespan, OneHeavyBlockSetsTheMakespan) {
  std::vector<double> blocks(8, 10.0);
  blocks[0] = 100;
  EXPECT_DOUBLE_EQ(grid_makespan(blocks, 4), 100);  // the others finish on the free slots
  blocks[0] = 10;
  blocks.push_back(100);  // the heavy block comes last, after two rounds of light ones
  EXPECT_DOUBLE_EQ(grid_makespan(blocks, 4), 20 + 100);
  EXPECT_DOUBLE_EQ(grid_makespan(std::vector<double>(12, 10.0), 4), 30);  // three waves
  EXPECT_THROW(grid_makespan(blocks, 0), InputError);
}

// Against the plain rule, slot by slot: each block in order on the slot that frees first. Times
// mostly rising with a few short blocks among them exercise both of the schedule's queues.
TEST(GridMakespan, MatchesTheEarliestSlotRuleOnMixedBlocks) {
  uint64_t state = 12345;
  auto next = [&] { state = state * 6364136223846793005ULL + 1442695040888963407ULL; return state >> 33; };
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t slots = 1 + static_cast<int64_t>(next() % 40);
    const double gap = trial % 2 ? 0.0 : 1.5;
    std::vector<double> blocks(1 + next() % 500);
    for (double& b : blocks) b = next() % 4 == 0 ? static_cast<double>(next() % 1000) : 100.0 + next() % 3;
    std::vector<double> free_at(static_cast<size_t>(std::min<int64_t>(slots, static_cast<int64_t>(blocks.size()))), 0);
    double expected = 0, dispatched = -gap;
    for (double cycles : blocks) {
      auto slot = std::min_element(free_at.begin(), free_at.end());
      const double start = std::max(*slot, dispatched + gap);
      dispatched = start;
      *slot = start + cycles;
      expected = std::max(expected, *slot);
    }
    EXPECT_DOUBLE_EQ(grid_makespan(blocks, slots, gap), expected) << "trial " << trial;
  }
}

// The block scheduler hands out one block per dispatch gap: short blocks wait on it, long ones
// do not notice it.
TEST(GridMakespan, ShortBlocksWaitOnTheBlockDispatch) {
  EXPECT_DOUBLE_EQ(grid_makespan(std::vector<double>(100, 1.0), 1000, 2.0), 99 * 2.0 + 1);
  EXPECT_DOUBLE_EQ(grid_makespan(std::vector<double>(8, 1000.0), 4, 2.0), 2 * 1000 + 3 * 2.0);
  EXPECT_DOUBLE_EQ(grid_makespan(std::vector<double>(8, 1000.0), 4, 0.0), 2 * 1000);
  EXPECT_THROW(grid_makespan(std::vector<double>(8, 1.0), 4, -1), InputError);
}

// Two SMs of two slots each (slots 0 and 2 on SM 0): blocks 0-3 fill them, 4 and 5 take slots
// 0 and 1 (free at 10, the lowest first), 6 takes slot 2 and runs long, 7 takes slot 3.
TEST(GridMakespan, TheBusiestSmKeepsItsBlocksInOrder) {
  const std::vector<double> blocks = {10, 10, 10, 10, 5, 5, 100, 1};
  EXPECT_EQ(busiest_sm_blocks(blocks, 4, 2), (std::vector<int64_t>{0, 2, 4, 6}));
  // One SM holds every slot; more slots than blocks leave some empty.
  EXPECT_EQ(busiest_sm_blocks(blocks, 4, 1).size(), blocks.size());
  EXPECT_EQ(busiest_sm_blocks({3, 9}, 8, 4), (std::vector<int64_t>{1}));
  EXPECT_THROW(busiest_sm_blocks(blocks, 0, 2), InputError);
  EXPECT_THROW(busiest_sm_blocks(blocks, 4, 0), InputError);
}

// `warps` warps that each issue `loads` streamed loads before using any: bound by device
// memory's throughput, not its latency, so co-resident blocks slow each other down.
BlockTrace streaming_block(int64_t id, int warps, int loads) {
  BlockTrace b;
  b.block = id;
  b.warps.resize(warps);
  uint64_t next = static_cast<uint64_t>(id) << 20;
  for (WarpTrace& w : b.warps) {
    for (int i = 0; i < loads; ++i) add_load(w, {next++});
    for (int i = 0; i < loads; ++i) w.ops.push_back(trace_op(OpClass::Fp32, 1, static_cast<uint32_t>(i)));
  }
  return b;
}

// Blocks that contend for device memory, 1.5 waves of them: the last half wave runs with half the
// blocks resident, so it takes about half a contended block's time, where the fitted times
// (every block as contended as the samples) would give two whole waves.
TEST(KernelEmulation, TheLastWaveRunsWithLessContention) {
  const GpuSpec gpu = test::simple_gpu();
  const int resident = 8;
  KernelEmulationOptions options;
  options.resident_blocks = resident;
  auto grid = [&](double waves) {
    KernelEmulationInput in = grid_of(0, {streaming_block(0, 4, 200), streaming_block(1, 4, 200)});
    in.block_weights.assign(static_cast<size_t>(waves * gpu.sms * resident), 1.0);
    return emulate_kernel(in, options);
  };
  const KernelPrediction tail = grid(1.5);
  EXPECT_TRUE(tail.tail_emulated);
  const double contended = (tail.samples[0].cycles + tail.samples[1].cycles) / 2;
  EXPECT_LT(tail.makespan_cycles, 1.75 * contended);
  EXPECT_GT(tail.makespan_cycles, 1.25 * contended);
  // One wave is the samples' own case; many waves are fitted (their tail is a small part).
  EXPECT_FALSE(grid(1).tail_emulated);
  const KernelPrediction many = grid(6);
  EXPECT_FALSE(many.tail_emulated);
  EXPECT_NEAR(many.makespan_cycles, 6 * contended, 0.05 * 6 * contended);
}

TEST(KernelEmulation, AUniformGridTakesItsWavesOfBlocks) {
  const GpuSpec gpu = test::simple_gpu();
  KernelEmulationInput in = grid_of(0, {work_block(0, 4, 40), work_block(1, 4, 40)});
  const int resident = 8;
  in.block_weights.assign(static_cast<size_t>(gpu.sms) * resident * 3, 1.0);
  KernelEmulationOptions options;
  options.resident_blocks = resident;
  const KernelPrediction p = emulate_kernel(in, options);
  EXPECT_EQ(p.resident_blocks, resident);
  EXPECT_EQ(p.active_sms, gpu.sms);
  ASSERT_EQ(p.samples.size(), 2u);
  const double block = (p.samples[0].cycles + p.samples[1].cycles) / 2;
  EXPECT_NEAR(p.makespan_cycles, 3 * block, 0.05 * block);
  EXPECT_DOUBLE_EQ(p.cycles, p.makespan_cycles);  // no launch overhead in this GPU
  EXPECT_DOUBLE_EQ(p.transactions[static_cast<size_t>(Resource::Dram)], 40.0 * 4 * gpu.sms * resident * 3);
  for (double u : p.utilisation) {
    EXPECT_GE(u, 0);
    EXPECT_LE(u, 1);
  }
}

TEST(KernelEmulation, OneHeavyBlockIsTheCriticalPath) {
  // Block 5 does 20x the work of the others: the kernel lasts at least as long as it.
  KernelEmulationInput in = grid_of(1000, {work_block(5, 4, 400), work_block(7, 4, 20), work_block(9, 4, 20)});
  in.block_weights[5] = 20;
  const KernelPrediction heavy = emulate_kernel(in);
  double heavy_cycles = 0, light_cycles = 0;
  for (const SampledBlock& s : heavy.samples) (s.block == 5 ? heavy_cycles : light_cycles) = s.cycles;
  EXPECT_GT(heavy_cycles, 10 * light_cycles);
  EXPECT_GE(heavy.makespan_cycles, heavy_cycles);
  EXPECT_GT(heavy.fit_slope, 0);
  // Without it the same grid is far shorter.
  KernelEmulationInput light = grid_of(1000, {work_block(7, 4, 20), work_block(9, 4, 20)});
  EXPECT_LT(emulate_kernel(light).makespan_cycles, 0.5 * heavy.makespan_cycles);
}

// Blocks of equal weight, half of which keep one warp running twenty times longer than the
// others (a CSR-Adaptive tile with a long row), sampled one long in four: the time-by-weight
// fit sees equal weights and gives every unsampled block the samples' mean; with spans the fit
// learns what a step of span costs, and each unsampled block gets the time of its kind.
TEST(KernelEmulation, SpansGiveUnsampledLongBlocksTheirTime) {
  auto lone_warp_block = [](int64_t id) {  // three short warps and one long one
    BlockTrace b = work_block(id, 4, 20);
    b.warps[3] = work_block(id, 1, 400).warps[0];
    return b;
  };
  const int64_t blocks = 20000;  // waves of blocks on every SM's slots
  KernelEmulationInput in = grid_of(blocks, {lone_warp_block(10), work_block(11, 4, 20), work_block(13, 4, 20),
                                             work_block(15, 4, 20)});
  const KernelPrediction without = emulate_kernel(in);
  in.block_spans.assign(static_cast<size_t>(blocks), 20.0);
  for (int64_t b = 0; b < blocks; b += 2) in.block_spans[static_cast<size_t>(b)] = 400;
  const KernelPrediction with = emulate_kernel(in);
  ASSERT_EQ(with.samples.size(), 4u);
  double long_cycles = 0, short_cycles = 0;
  for (const SampledBlock& sample : with.samples) {
    EXPECT_DOUBLE_EQ(sample.span, sample.block == 10 ? 400 : 20);
    (sample.block == 10 ? long_cycles : short_cycles) = sample.cycles;
  }
  EXPECT_GT(long_cycles, 5 * short_cycles);
  EXPECT_GT(with.fit_span_slope, 0);
  const double fitted_long = with.fit_intercept + with.fit_slope + 400 * with.fit_span_slope;
  EXPECT_NEAR(fitted_long, long_cycles, 0.1 * long_cycles);
  // Half the grid long, not a quarter as the samples' mean says.
  EXPECT_GT(with.makespan_cycles, 1.3 * without.makespan_cycles);
  in.block_spans.resize(3);
  EXPECT_THROW(emulate_kernel(in), InputError);
  in.block_spans.assign(static_cast<size_t>(blocks), -1.0);
  EXPECT_THROW(emulate_kernel(in), InputError);
}

// The SM's other slots hold what the grid's other blocks are like. Four heavy samples of a
// thousand-block grid are four blocks of it: the blocks that fill the SM around the timed
// samples are the light samples, and every sample is timed once.
TEST(KernelEmulation, TheSmRunIsFilledWithTypicalBlocks) {
  std::vector<BlockTrace> samples;
  for (int64_t b : {1, 2, 3, 4}) samples.push_back(work_block(b, 4, 200));
  for (int64_t b : {500, 501, 502, 503}) samples.push_back(work_block(b, 4, 10));
  KernelEmulationInput in = grid_of(1000, samples);
  for (int64_t b : {1, 2, 3, 4}) in.block_weights[static_cast<size_t>(b)] = 20;
  const PreparedKernel k = prepare_kernel(in);
  ASSERT_GT(k.resident_blocks, 1);
  ASSERT_EQ(k.queue.size(), samples.size() + 2 * k.first_measured);
  std::multiset<int64_t> timed;
  for (size_t p = 0; p < k.queue.size(); ++p) {
    const bool is_timed = p >= k.first_measured && p < k.first_measured + samples.size();
    if (is_timed) {
      timed.insert(k.queue[p]->block);
    } else {
      EXPECT_GE(k.queue[p]->block, 500) << "a heavy sample fills slot " << p;
    }
  }
  EXPECT_EQ(timed, (std::multiset<int64_t>{1, 2, 3, 4, 500, 501, 502, 503}));
}

TEST(KernelEmulation, OccupancyComesFromRegistersAndASmallGridSharesDramAmongFewSms) {
  KernelEmulationInput in = grid_of(100000, {work_block(0, 4, 10)});
  in.usage.registers = 128;  // 128 threads x 128 registers: 4 blocks per SM
  EXPECT_EQ(prepare_kernel(in).resident_blocks, 4);
  in.usage.registers = 32;
  EXPECT_EQ(prepare_kernel(in).resident_blocks, 16);  // 2048 threads / 128
  // One block in the grid: one SM, which has all of the DRAM bandwidth.
  KernelEmulationInput one = grid_of(1, {work_block(0, 4, 10)});
  const PreparedKernel k = prepare_kernel(one);
  EXPECT_EQ(k.active_sms, 1);
  EXPECT_EQ(k.resident_blocks, 1);
  EXPECT_DOUBLE_EQ(timing(k.timing.table, Resource::Dram).gap,
                   timing(one.gpu.timing, Resource::Dram).gap / one.gpu.sms);
}

// 4 warps, each reading its own 64 sectors (8 KiB per block) twice: the second pass hits L1
// only when L1 can hold the blocks resident beside it.
BlockTrace reread_block(int64_t id) {
  BlockTrace b;
  b.block = id;
  b.warps.resize(4);
  for (size_t wi = 0; wi < b.warps.size(); ++wi)
    for (int pass = 0; pass < 2; ++pass)
      for (uint64_t s = 0; s < 64; ++s) add_load(b.warps[wi], {(static_cast<uint64_t>(id) << 20) + wi * 64 + s});
  return b;
}

TEST(KernelEmulation, L1IsWhatTheSharedCarveoutLeaves) {
  KernelEmulationInput plain = grid_of(100000, {reread_block(0), reread_block(1)});
  const PreparedKernel without_shared = prepare_kernel(plain);  // 16 blocks x 8 KiB fit 240 KiB
  EXPECT_NEAR(without_shared.programs.cache.l1_hit_rate, 0.5, 1e-9);
  KernelEmulationInput sharing = plain;
  sharing.usage.shared_bytes = 13 * 1024;  // 16 x 14 KiB: the 228 KiB carveout, 28 KiB of L1 left
  const PreparedKernel with_shared = prepare_kernel(sharing);
  ASSERT_EQ(with_shared.resident_blocks, 16);
  EXPECT_LT(with_shared.programs.cache.l1_hit_rate, 0.15);
}

TEST(KernelEmulation, AddsTheLaunchOverheadOfEveryLaunch) {
  KernelEmulationInput in = grid_of(10, {work_block(0, 1, 5)});
  in.gpu.launch_overhead_us = 2;
  in.launches = 3;
  const KernelPrediction p = emulate_kernel(in);
  EXPECT_DOUBLE_EQ(p.launch_cycles, 3 * 2 * 1e3 * in.gpu.clock_ghz);
  EXPECT_DOUBLE_EQ(p.cycles, p.makespan_cycles + p.launch_cycles);
  EXPECT_DOUBLE_EQ(p.microseconds, p.cycles / (in.gpu.clock_ghz * 1e3));
}

TEST(KernelEmulation, RecordsTheOpsOfTheSmRunWhenAsked) {
  KernelEmulationOptions options;
  options.record_ops = true;
  const KernelPrediction p = emulate_kernel(grid_of(1, {work_block(0, 2, 3)}), options);
  EXPECT_EQ(p.sm_run.ops.size(), 2u * 6);
}

TEST(KernelEmulation, RejectsInconsistentInput) {
  EXPECT_THROW(emulate_kernel(grid_of(4, {})), InputError);
  EXPECT_THROW(emulate_kernel(grid_of(4, {work_block(4, 1, 1)})), InputError);  // outside
  KernelEmulationInput huge = grid_of(4, {work_block(0, 1, 1)});
  huge.threads_per_block = 1024;
  huge.usage.registers = 255;  // 1024 x 255 registers do not fit
  EXPECT_THROW(emulate_kernel(huge), InputError);
  KernelEmulationInput negative = grid_of(4, {work_block(0, 1, 1)});
  negative.block_weights[2] = -1;
  EXPECT_THROW(emulate_kernel(negative), InputError);
}

}  // namespace
}  // namespace ktune
