#include "model/first_cost_model.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <vector>

#include "model/occupancy.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr int kWarpSize = 32;
constexpr double kSectorBytes = 32;
// Loads one warp keeps in flight: four 128-byte lines, a loop unrolled a few times.
constexpr double kBytesInFlightPerWarp = 512;
// The cheapest work unit (a loop iteration) is still a few dependent instructions.
constexpr double kMinCyclesPerWorkUnit = 8;
// Slowest slot over mean slot beyond which uneven work, not latency, is named the cause.
constexpr double kImbalanceThreshold = 1.5;

struct Schedule {
  double busiest_slot = 0;  // work units
  double imbalance = 1;
};

// Blocks go in index order to whichever block slot frees first, as the hardware's block
// scheduler hands them out; a block holds its slot until its slowest warp is done. Past
// kUnitsPerSlot blocks a slot, runs of consecutive blocks go to a slot whole: the list schedule
// of millions of blocks (SpMM's K tiles over a 4 M-row matrix) took longer than the tune's
// measurements, and with that many units a slot the busiest one moves by at most a unit's share.
constexpr int64_t kUnitsPerSlot = 64;

Schedule schedule_blocks(const WorkEstimate& work, int warps_per_block, int64_t block_slots) {
  const std::vector<float>& warp_work = work.warp_work;
  const int64_t warps = static_cast<int64_t>(warp_work.size());
  const int64_t distinct_blocks = (warps + warps_per_block - 1) / warps_per_block;
  std::vector<float> block_time(static_cast<size_t>(distinct_blocks));
  for (int64_t b = 0; b < distinct_blocks; ++b) {
    const auto first = warp_work.begin() + b * warps_per_block;
    const auto last = warp_work.begin() + std::min(warps, (b + 1) * warps_per_block);
    block_time[static_cast<size_t>(b)] = *std::max_element(first, last);
  }
  const int64_t repeats = std::max<int64_t>(1, work.warp_work_repeats);
  const int64_t blocks = distinct_blocks * repeats;
  const int64_t slots_used = std::min(blocks, block_slots);
  const int64_t run = std::max<int64_t>(1, blocks / (kUnitsPerSlot * slots_used));
  std::priority_queue<double, std::vector<double>, std::greater<>> slot_free_at;
  for (int64_t s = 0; s < slots_used; ++s) slot_free_at.push(0);
  for (int64_t first = 0; first < blocks; first += run) {
    double unit = 0;
    for (int64_t b = first; b < std::min(blocks, first + run); ++b) unit += block_time[static_cast<size_t>(b % distinct_blocks)];
    const double free_at = slot_free_at.top();
    slot_free_at.pop();
    slot_free_at.push(free_at + unit);
  }
  Schedule schedule;
  while (!slot_free_at.empty()) {
    schedule.busiest_slot = std::max(schedule.busiest_slot, slot_free_at.top());
    slot_free_at.pop();
  }
  const double total = std::accumulate(warp_work.begin(), warp_work.end(), 0.0) * static_cast<double>(repeats);
  const double mean_per_warp_slot = total / static_cast<double>(slots_used * warps_per_block);
  if (mean_per_warp_slot > 0) {
    schedule.imbalance = std::max(1.0, schedule.busiest_slot / mean_per_warp_slot);
  }
  return schedule;
}

std::string name_bottleneck(const Prediction& p, double dram_efficiency) {
  if (p.launch_us >= std::max(p.memory_us, p.compute_us)) return "launch";
  if (p.compute_us > p.memory_us) {
    return p.imbalance > kImbalanceThreshold ? "imbalance" : "latency";
  }
  // DRAM-bound, but with too few warps in flight to draw its full bandwidth.
  return dram_efficiency < 1 ? "latency" : "memory";
}

}  // namespace

nlohmann::json Prediction::to_json() const {
  return {{"time_us", time_us},       {"memory_us", memory_us}, {"compute_us", compute_us},
          {"launch_us", launch_us},   {"imbalance", imbalance}, {"occupancy", occupancy},
          {"bottleneck", bottleneck}};
}

Prediction predict(const WorkEstimate& work, const ResourceUsage& usage, const GpuSpec& gpu) {
  Prediction p;
  p.launch_us = launch_time_us(gpu, work.launches, work.loop_iterations);
  const double repeats = static_cast<double>(std::max<int64_t>(1, work.warp_work_repeats));
  const double total_units = std::accumulate(work.warp_work.begin(), work.warp_work.end(), 0.0) * repeats;
  if (work.dram_bytes <= 0 && total_units <= 0) {
    p.time_us = p.launch_us;
    p.bottleneck = "launch";
    return p;
  }
  if (work.threads_per_block <= 0) {
    throw std::invalid_argument("predict: a WorkEstimate with work needs threads_per_block");
  }
  const Occupancy occ =
      occupancy(gpu, work.threads_per_block, std::max(usage.registers, work.registers_per_thread),
                static_cast<int>(std::max<int64_t>(usage.shared_bytes, work.shared_bytes_per_block)));
  if (occ.blocks_per_sm == 0) {
    throw InputError("the configuration cannot run on " + gpu.arch + ": one block of " +
                     std::to_string(work.threads_per_block) + " threads exceeds the SM's " +
                     occ.limiter + " limit");
  }
  p.occupancy = occ.fraction;

  const int warps_per_block = (work.threads_per_block + kWarpSize - 1) / kWarpSize;
  const double warps = work.warp_work.empty()
                           ? static_cast<double>(work.blocks) * warps_per_block
                           : static_cast<double>(work.warp_work.size()) * repeats;
  if (warps <= 0) throw std::invalid_argument("predict: a WorkEstimate with bytes needs blocks");
  // Spill code runs at least once per thread; that lower bound is what is charged. A gathered
  // array held once per L2 partition that fits is read from DRAM once.
  const bool gathers_hit_l2 =
      work.gather_footprint > 0 && work.gather_footprint * gpu.l2_partitions <= static_cast<double>(gpu.l2_bytes);
  const double dram_bytes =
      gathers_hit_l2 ? work.dram_bytes - work.gather_bytes + std::min(work.gather_bytes, work.gather_footprint)
                     : work.dram_bytes;
  const double bytes = dram_bytes + (usage.spill_stores + usage.spill_loads) * warps * kWarpSize;

  // Little's law: DRAM delivers its bandwidth only with bandwidth x latency bytes in flight.
  const double in_flight_per_warp = kBytesInFlightPerWarp * std::max(1.0, work.loads_in_flight);
  const double warps_to_saturate = gpu.dram_bandwidth_gbs * gpu.dram_latency_ns / gpu.sms / in_flight_per_warp;
  const double active_warps_per_sm = std::min<double>(occ.warps_per_sm, warps / gpu.sms);
  const double dram_efficiency = std::min(1.0, active_warps_per_sm / warps_to_saturate);
  p.memory_us = bytes / (gpu.dram_bandwidth_gbs * 1e3 * dram_efficiency);
  // Gathers that L2 holds still pass its tag pipe, a request a sector.
  const double cycles_per_us = gpu.clock_ghz * 1e3;
  const double gather_requests = (work.gather_bytes + work.scattered_atomic_bytes) / kSectorBytes;
  p.memory_us = std::max(p.memory_us, gather_requests * gpu.timing[static_cast<size_t>(Resource::L2Tag)].gap /
                                          (gpu.sms * cycles_per_us));

  if (total_units > 0) {
    // A warp alone is latency bound: it moves its share of bytes at its in-flight rate.
    const Resource waits_on = work.rounds_read_dram ? Resource::Dram : Resource::L2;
    const double min_cycles = work.unit_waits_on_load
                                  ? std::max(kMinCyclesPerWorkUnit, gpu.timing[static_cast<size_t>(waits_on)].latency)
                                  : kMinCyclesPerWorkUnit;
    const double unit_ns =
        std::max(bytes / total_units / in_flight_per_warp * gpu.dram_latency_ns, min_cycles / gpu.clock_ghz);
    const Schedule schedule =
        schedule_blocks(work, warps_per_block, static_cast<int64_t>(gpu.sms) * occ.blocks_per_sm);
    p.compute_us = schedule.busiest_slot * unit_ns / 1e3;
    p.imbalance = schedule.imbalance;
    if (!work.steps.empty()) {
      const double repeats_of_steps = static_cast<double>(std::max<int64_t>(1, work.step_repeats));
      const double one_repeat = p.compute_us / repeats_of_steps;
      double steps_us = 0;
      for (const SequentialStep& step : work.steps)
        steps_us += std::max(step.share * one_repeat, step.chain_rounds * unit_ns / 1e3);
      p.compute_us = steps_us * repeats_of_steps;
    }
  }
  // What runs one at a time device-wide: atomics on one address, and the block scheduler.
  p.compute_us = std::max({p.compute_us, work.serial_atomics * gpu.same_address_atomic_ns / 1e3,
                           work.blocks_dispatched * gpu.block_dispatch_cycles / cycles_per_us});
  // Swaps queued on one address wait in turn whatever else the launch does.
  p.compute_us += work.queued_swaps * gpu.queued_cas_ns / 1e3;
  p.time_us = p.launch_us + (work.single_stage ? p.memory_us + p.compute_us : std::max(p.memory_us, p.compute_us));
  p.bottleneck = name_bottleneck(p, dram_efficiency);
  return p;
}

}  // namespace ktune
