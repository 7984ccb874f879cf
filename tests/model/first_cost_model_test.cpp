#include "model/first_cost_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <vector>

#include "model/occupancy.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// A balanced, memory-heavy kernel: many 256-thread blocks of equal warps.
WorkEstimate balanced(double bytes) {
  WorkEstimate w;
  w.dram_bytes = bytes;
  w.threads_per_block = 256;
  w.blocks = 4096;
  w.warp_work.assign(w.blocks * 8, 16.0);
  return w;
}

ResourceUsage light() {
  ResourceUsage u;
  u.registers = 32;
  return u;
}

const GpuSpec& h100() {
  static const GpuSpec spec = spec_for_arch("sm_90");
  return spec;
}

TEST(FirstCostModel, MemoryBoundTimeIsBytesOverBandwidth) {
  const double bytes = 1e9;
  const Prediction p = predict(balanced(bytes), light(), h100());
  EXPECT_EQ(p.bottleneck, "memory");
  EXPECT_DOUBLE_EQ(p.occupancy, 1.0);
  // 1 GB at 3000 GB/s = 333.3 us, plus one launch.
  EXPECT_NEAR(p.memory_us, bytes / (h100().dram_bandwidth_gbs * 1e3), 1e-9);
  EXPECT_NEAR(p.time_us, p.memory_us + h100().launch_overhead_us, 1e-9);
}

TEST(FirstCostModel, DoublingBytesDoublesAMemoryBoundTime) {
  const Prediction once = predict(balanced(2e8), light(), h100());
  const Prediction twice = predict(balanced(4e8), light(), h100());
  ASSERT_EQ(once.bottleneck, "memory");
  EXPECT_NEAR(twice.time_us - twice.launch_us, 2 * (once.time_us - once.launch_us), 1e-9);
}

TEST(FirstCostModel, OneHeavyRowDominates) {
  WorkEstimate even = balanced(2e8);
  WorkEstimate skewed = even;
  // One warp carries a thousand times the mean of the others.
  const double mean = 16.0;
  skewed.warp_work[0] = 1000 * mean;
  skewed.warp_work[1] = skewed.warp_work[2] = 0;
  const Prediction p_even = predict(even, light(), h100());
  const Prediction p_skewed = predict(skewed, light(), h100());
  EXPECT_EQ(p_skewed.bottleneck, "imbalance");
  EXPECT_GT(p_skewed.imbalance, 10.0);
  EXPECT_GT(p_skewed.time_us, 3 * p_even.time_us);
  EXPECT_GT(p_skewed.compute_us, p_skewed.memory_us);
  EXPECT_LT(p_even.imbalance, 1.5);
}

// A grid whose y repeats its x blocks (SpMM's K tiles) may store one copy of the warps: the
// prediction is that of the copies written out.
TEST(FirstCostModel, RepeatedWarpsPredictAsTheirCopies) {
  WorkEstimate once = balanced(2e8);
  for (size_t i = 0; i < once.warp_work.size(); ++i) once.warp_work[i] = static_cast<double>(1 + i % 97);
  once.blocks = 4096 * 3;
  WorkEstimate copies = once;
  copies.warp_work.clear();
  for (int t = 0; t < 3; ++t) copies.warp_work.insert(copies.warp_work.end(), once.warp_work.begin(), once.warp_work.end());
  once.warp_work_repeats = 3;
  const Prediction a = predict(once, light(), h100()), b = predict(copies, light(), h100());
  EXPECT_DOUBLE_EQ(a.compute_us, b.compute_us);
  EXPECT_DOUBLE_EQ(a.imbalance, b.imbalance);
  EXPECT_DOUBLE_EQ(a.time_us, b.time_us);
}

// What the family counts of a block (a ring of dynamic shared memory, registers before any
// compile) bounds the blocks an SM runs beside the usage given: a compute-bound run of 4096
// blocks of 256 threads takes 8 at once an SM at 32 registers, 1 with 200 KB a block or 255
// registers a thread, each eight times longer; the larger count wins either way.
TEST(FirstCostModel, TheFamilysSharedMemoryAndRegistersBoundTheResidentBlocks) {
  WorkEstimate w = balanced(1e3);
  const Prediction light_blocks = predict(w, light(), h100());
  ASSERT_EQ(occupancy(h100(), 256, 32, 0).blocks_per_sm, 8);
  w.shared_bytes_per_block = 200 * 1024;
  const Prediction ring = predict(w, light(), h100());
  EXPECT_NEAR(ring.compute_us / light_blocks.compute_us, 8.0, 0.5);
  EXPECT_LT(ring.occupancy, light_blocks.occupancy);
  w.shared_bytes_per_block = 0;
  w.registers_per_thread = 255;
  EXPECT_NEAR(predict(w, light(), h100()).compute_us / light_blocks.compute_us, 8.0, 0.5);
  ResourceUsage heavy = light();
  heavy.registers = 255;
  w.registers_per_thread = 32;  // the compiled count is larger: it stands
  EXPECT_NEAR(predict(w, heavy, h100()).compute_us / light_blocks.compute_us, 8.0, 0.5);
}

// A kernel without a pipeline (each block loads, computes and stores once) does not hide its
// blocks' chains under the DRAM time: the two add.
TEST(FirstCostModel, ASingleStageKernelAddsItsChainsToTheDramTime) {
  WorkEstimate w = balanced(1e3);
  w.dram_bytes = 1e8;
  const Prediction overlapped = predict(w, light(), h100());
  ASSERT_GT(overlapped.memory_us, 0);
  ASSERT_GT(overlapped.compute_us, 0);
  w.single_stage = true;
  const Prediction serial = predict(w, light(), h100());
  EXPECT_DOUBLE_EQ(serial.memory_us, overlapped.memory_us);
  EXPECT_DOUBLE_EQ(serial.compute_us, overlapped.compute_us);
  EXPECT_DOUBLE_EQ(overlapped.time_us, overlapped.launch_us + std::max(overlapped.memory_us, overlapped.compute_us));
  EXPECT_DOUBLE_EQ(serial.time_us, serial.launch_us + serial.memory_us + serial.compute_us);
}

// Millions of blocks are scheduled in runs of consecutive blocks: the busiest slot stays within
// a few percent of the block-by-block list schedule, written out here.
TEST(FirstCostModel, RunsOfManyBlocksKeepTheListSchedule) {
  WorkEstimate e;
  e.threads_per_block = 256;
  e.blocks = 1 << 20;
  e.unit_waits_on_load = true;
  e.warp_work.resize(static_cast<size_t>(e.blocks) * 8);
  for (size_t i = 0; i < e.warp_work.size(); ++i) e.warp_work[i] = static_cast<double>((i * 7919) % 61 + (i % 4099 == 0 ? 5000 : 1));
  const Prediction p = predict(e, light(), h100());
  const int64_t slots = int64_t{h100().sms} * occupancy(h100(), 256, light().registers, 0).blocks_per_sm;
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int64_t s = 0; s < slots; ++s) free_at.push(0);
  double busiest = 0;
  for (int64_t b = 0; b < e.blocks; ++b) {
    const double done = free_at.top() + *std::max_element(e.warp_work.begin() + b * 8, e.warp_work.begin() + (b + 1) * 8);
    free_at.pop();
    free_at.push(done);
    busiest = std::max(busiest, done);
  }
  const double total = std::accumulate(e.warp_work.begin(), e.warp_work.end(), 0.0);
  EXPECT_NEAR(p.imbalance, busiest / (total / static_cast<double>(slots * 8)), 0.03 * p.imbalance);
}

// Many small units that each wait on a dependent load (a graph expansion's rounds): a unit
// costs at least an L2 round trip, so the schedule that makes more of them is slower even though
// both move the same bytes; without the flag the bytes are spread over the units and the two tie.
TEST(FirstCostModel, UnitsThatWaitOnALoadCostAnL2RoundTripEach) {
  WorkEstimate few = balanced(1e8);
  WorkEstimate many = balanced(1e8);
  for (float& w : many.warp_work) w *= 50;
  const Prediction few_plain = predict(few, light(), h100());
  const Prediction many_plain = predict(many, light(), h100());
  EXPECT_NEAR(many_plain.time_us, few_plain.time_us, 1e-6 * few_plain.time_us);
  few.unit_waits_on_load = many.unit_waits_on_load = true;
  const Prediction few_waiting = predict(few, light(), h100());
  const Prediction many_waiting = predict(many, light(), h100());
  EXPECT_GT(many_waiting.time_us, 10 * few_waiting.time_us);
  // Each of the busiest slot's units at least the L2 latency: 8 warps x 50 x 16 units a block,
  // 4096 blocks over the SMs' resident blocks.
  const double l2_cycles = h100().timing[static_cast<size_t>(Resource::L2)].latency;
  const double slots = h100().sms * 8.0;  // 256 threads, 32 registers: 8 blocks an SM
  const double units_per_slot = 4096 / slots * 16 * 50;
  EXPECT_GE(many_waiting.compute_us, 0.99 * units_per_slot * l2_cycles / h100().clock_ghz / 1e3);
}

// A gathered array that L2 holds (once per partition) costs DRAM its own bytes once, not a
// sector a gather; one too large for L2 keeps every sector.
TEST(FirstCostModel, GathersFromAnArrayL2HoldsReadItOnce) {
  const double gathers = 3e8;
  WorkEstimate small = balanced(1e9 + gathers);
  small.gather_bytes = gathers;
  small.gather_footprint = 4e6;
  WorkEstimate large = small;
  large.gather_footprint = static_cast<double>(h100().l2_bytes);  // twice L2 with two partitions
  const Prediction held = predict(small, light(), h100());
  const Prediction missed = predict(large, light(), h100());
  EXPECT_NEAR(missed.memory_us / held.memory_us, (1e9 + gathers) / (1e9 + 4e6), 1e-9);
}

// Gathers L2 holds still take a request each at its tag pipe: many of them from a small array
// cost more than the DRAM bytes would.
TEST(FirstCostModel, GathersThatHitL2PassItsTagPipeASectorARequest) {
  WorkEstimate w = balanced(1e8 + 1.6e10);
  w.gather_bytes = 1.6e10;  // 5e8 sectors
  w.gather_footprint = 4e6;
  const GpuSpec gpu = h100();
  const double tag_us = 5e8 * gpu.timing[static_cast<size_t>(Resource::L2Tag)].gap / (gpu.sms * gpu.clock_ghz * 1e3);
  const Prediction p = predict(w, light(), gpu);
  EXPECT_NEAR(p.memory_us, tag_us, 1e-6 * tag_us);
  EXPECT_GT(p.memory_us, 10 * (1e8 + 4e6) / (gpu.dram_bandwidth_gbs * 1e3));
  // Scattered by atomics instead, each sector is read and written there: twice the requests.
  w.scattered_atomic_bytes = w.gather_bytes;
  EXPECT_NEAR(predict(w, light(), gpu).memory_us, 2 * tag_us, 2e-6 * tag_us);
}

// Atomics on one address and many short blocks each have a device-wide floor.
TEST(FirstCostModel, SerialAtomicsAndBlockDispatchBoundAShortRun) {
  const GpuSpec gpu = h100();
  WorkEstimate w = balanced(1e6);
  const Prediction plain = predict(w, light(), gpu);
  w.serial_atomics = 1e6;
  const Prediction contended = predict(w, light(), gpu);
  EXPECT_NEAR(contended.compute_us, 1e6 * gpu.same_address_atomic_ns / 1e3, 1e-9);
  EXPECT_GT(contended.time_us, 10 * plain.time_us);
  w.serial_atomics = 0;
  w.blocks_dispatched = 1e7;
  const Prediction dispatched = predict(w, light(), gpu);
  EXPECT_NEAR(dispatched.compute_us, 1e7 * gpu.block_dispatch_cycles / (gpu.clock_ghz * 1e3), 1e-9);
}

// Compare-and-swaps queued on one address wait in turn on top of the launch's work.
TEST(FirstCostModel, QueuedSwapsAddTheirWaitToTheWork) {
  const GpuSpec gpu = h100();
  ASSERT_GT(gpu.queued_cas_ns, 0);
  WorkEstimate w = balanced(1e6);
  const Prediction plain = predict(w, light(), gpu);
  w.queued_swaps = 5000;
  const Prediction queued = predict(w, light(), gpu);
  EXPECT_NEAR(queued.compute_us - plain.compute_us, 5000 * gpu.queued_cas_ns / 1e3, 1e-9);
  EXPECT_GT(queued.time_us, plain.time_us);
}

// Launches that follow one another: steps that split the work by their shares take its time; a
// step whose slowest lane's chain outlasts its share (a level holding one hub) takes the chain,
// a round trip an L2 latency, however many SMs are idle.
TEST(FirstCostModel, SequentialStepsTakeTheirShareOrTheirChain) {
  WorkEstimate w = balanced(1e6);
  w.unit_waits_on_load = true;
  const Prediction whole = predict(w, light(), h100());
  w.steps = {{0.25, 0}, {0.75, 0}};
  EXPECT_NEAR(predict(w, light(), h100()).compute_us, whole.compute_us, 1e-9 * whole.compute_us);
  const double l2_us = h100().timing[static_cast<size_t>(Resource::L2)].latency / h100().clock_ghz / 1e3;
  const double chain = 10 * whole.compute_us / l2_us;  // ten times the whole run's time
  w.steps = {{0.25, chain}, {0.75, 0}};
  EXPECT_NEAR(predict(w, light(), h100()).compute_us, chain * l2_us + 0.75 * whole.compute_us, 1e-6 * whole.compute_us);
  // Repeated in turn (a traversal from each of two sources), each repeat does half the work.
  w.step_repeats = 2;
  EXPECT_NEAR(predict(w, light(), h100()).compute_us, 2 * (chain * l2_us + 0.75 * whole.compute_us / 2),
              1e-6 * whole.compute_us);
}

// Loads a warp issues together (a batch of edges) put more bytes in flight: the same bytes over
// the same units take less time, and fewer warps draw the full bandwidth.
TEST(FirstCostModel, LoadsInFlightTogetherShortenALatencyBoundUnit) {
  WorkEstimate one = balanced(4e9);
  one.blocks = 64;
  one.warp_work.assign(one.blocks * 8, 16.0);
  WorkEstimate four = one;
  four.loads_in_flight = 4;
  const Prediction p_one = predict(one, light(), h100());
  const Prediction p_four = predict(four, light(), h100());
  EXPECT_LT(p_four.time_us, 0.5 * p_one.time_us);
}

TEST(FirstCostModel, LowOccupancyRaisesTime) {
  ResourceUsage heavy = light();
  heavy.registers = 255;  // one 8-warp block per SM: 1/8 of the warp slots
  const Prediction full = predict(balanced(4e8), light(), h100());
  const Prediction starved = predict(balanced(4e8), heavy, h100());
  EXPECT_DOUBLE_EQ(starved.occupancy, 8.0 / 64);
  EXPECT_GT(starved.time_us, 1.5 * full.time_us);
  EXPECT_EQ(starved.bottleneck, "latency");
}

TEST(FirstCostModel, SpillsAddLocalMemoryTraffic) {
  ResourceUsage spilling = light();
  spilling.spill_stores = 64;
  spilling.spill_loads = 64;
  const WorkEstimate w = balanced(2e8);
  const Prediction clean = predict(w, light(), h100());
  const Prediction spilled = predict(w, spilling, h100());
  const double threads = static_cast<double>(w.warp_work.size()) * 32;
  EXPECT_NEAR(spilled.memory_us - clean.memory_us,
              128 * threads / (h100().dram_bandwidth_gbs * 1e3), 1e-9);
}

TEST(FirstCostModel, MoreLaunchesAddLaunchCost) {
  WorkEstimate one = balanced(2e8);
  WorkEstimate three = one;
  three.launches = 3;
  const Prediction p1 = predict(one, light(), h100());
  const Prediction p3 = predict(three, light(), h100());
  EXPECT_NEAR(p3.time_us - p1.time_us, 2 * h100().launch_overhead_us, 1e-9);
  EXPECT_DOUBLE_EQ(p3.launch_us, 3 * h100().launch_overhead_us);
}

// A program that loops on the device is one graph: its launch, each iteration's turn and each
// node, not a launch on a stream apiece.
TEST(FirstCostModel, ALoopingProgramIsChargedAsTheGraphItRunsAs) {
  WorkEstimate looped = balanced(2e8);
  looped.launches = 2 + 3 * 40;
  looped.loop_iterations = 40;
  const Prediction p = predict(looped, light(), h100());
  EXPECT_DOUBLE_EQ(p.launch_us, h100().graph_launch_us + 40 * h100().loop_iteration_us +
                                    122 * h100().graph_node_us);
  EXPECT_LT(p.launch_us, 122 * h100().launch_overhead_us);
}

TEST(FirstCostModel, ZeroWorkCostsOnlyTheLaunch) {
  WorkEstimate nothing;
  nothing.launches = 2;
  const Prediction p = predict(nothing, light(), h100());
  EXPECT_DOUBLE_EQ(p.time_us, 2 * h100().launch_overhead_us);
  EXPECT_DOUBLE_EQ(p.memory_us, 0);
  EXPECT_DOUBLE_EQ(p.compute_us, 0);
  EXPECT_EQ(p.bottleneck, "launch");
}

TEST(FirstCostModel, TinyKernelIsLaunchBound) {
  WorkEstimate tiny;
  tiny.dram_bytes = 4096;
  tiny.threads_per_block = 128;
  tiny.blocks = 1;
  tiny.warp_work.assign(4, 1.0);
  EXPECT_EQ(predict(tiny, light(), h100()).bottleneck, "launch");
}

TEST(FirstCostModel, ConfigurationThatCannotLaunchIsAnInputError) {
  WorkEstimate w = balanced(1e6);
  ResourceUsage huge = light();
  huge.shared_bytes = 300 * 1024;
  EXPECT_THROW(predict(w, huge, h100()), InputError);
}

TEST(FirstCostModel, JsonCarriesEveryField) {
  const Prediction p = predict(balanced(1e8), light(), h100());
  const nlohmann::json j = p.to_json();
  EXPECT_DOUBLE_EQ(j.at("time_us").get<double>(), p.time_us);
  EXPECT_DOUBLE_EQ(j.at("memory_us").get<double>(), p.memory_us);
  EXPECT_DOUBLE_EQ(j.at("compute_us").get<double>(), p.compute_us);
  EXPECT_DOUBLE_EQ(j.at("launch_us").get<double>(), p.launch_us);
  EXPECT_DOUBLE_EQ(j.at("imbalance").get<double>(), p.imbalance);
  EXPECT_DOUBLE_EQ(j.at("occupancy").get<double>(), p.occupancy);
  EXPECT_EQ(j.at("bottleneck").get<std::string>(), p.bottleneck);
}

}  // namespace
}  // namespace ktune
