#include "model/gpu_spec.h"

#include <algorithm>

#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr int kKiB = 1024;
constexpr int64_t kMiB = 1024 * 1024;
constexpr double kSectorBytes = 32;

std::vector<int> carveouts_kib(std::initializer_list<int> kib) {
  std::vector<int> bytes;
  for (int k : kib) bytes.push_back(k * kKiB);
  return bytes;
}

// Cycles between two 32-byte sectors that one SM may move through a device-wide resource of
// this sustained bandwidth when every SM draws its equal share (the emulator rescales it
// when fewer SMs are active): 32 B / (bandwidth / SMs / clock).
double sector_gap_per_sm(double bandwidth_gbs, int sms, double clock_ghz) {
  const double bytes_per_cycle_per_sm = bandwidth_gbs / clock_ghz / sms;
  return kSectorBytes / bytes_per_cycle_per_sm;
}

// Emulator latencies (dependent-issue distance) and gaps, in cycles. Gaps of the issue-side
// pipes (int_alu, fp32, fp64, sfu, branch, issue) are per warp scheduler: 32 lanes over the
// pipe's lanes in one SM sub-partition; the memory-side resources (shared, l1, l2, dram,
// atomic, barrier) are per SM (resource.h, resource_is_per_scheduler). Placeholders from
// published microbenchmarks until calibration measures the device:
//   [A] H. Abdelkhalik et al., "Demystifying the Nvidia Ampere Architecture through
//       Microbenchmarking and Instruction-level Analysis", HPEC 2022 (A100).
//   [H] W. Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU Architecture",
//       IPDPS 2024 (H800/H100: L1 ~33, shared ~29, L2 ~262, global ~479 cycles).
//   [Z] Z. Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking",
//       2018 (FMA 4, DFMA 8, MUFU ~18-23, branch, barrier figures that Ampere/Hopper keep).
//   Lane counts per sub-partition from the A100 and H100 whitepapers.
struct PipeFigures {
  double int_gap, fp32_gap, fp64_gap;  // 32 / lanes per sub-partition
  double shared_latency, l1_latency, l2_latency, dram_latency;
  double l2_bandwidth_gbs;  // sustained L2 read bandwidth of the whole device
};

void fill_emulator_timing(GpuSpec& s, const PipeFigures& f) {
  s.schedulers_per_sm = 4;    // four SM sub-partitions, one scheduler each
  s.issue_per_scheduler = 1;  // one warp instruction per cycle (no dual issue since Volta)
  auto set = [&](Resource r, double latency, double gap) { timing(s.timing, r) = {latency, gap}; };
  set(Resource::IntAlu, 4, f.int_gap);  // IADD3/LOP3 [A][Z]
  set(Resource::Fp32, 4, f.fp32_gap);   // FFMA [A][H][Z]
  set(Resource::Fp64, 8, f.fp64_gap);   // DFMA [Z]
  set(Resource::Sfu, 20, 8);            // MUFU: 4 lanes per sub-partition [Z]
  set(Resource::Shared, f.shared_latency, 1);  // 32 banks x 4 B: one wavefront per cycle
  set(Resource::L1, f.l1_latency, 0.25);       // 128 B per cycle per SM: 4 sectors
  const double l2_gap = sector_gap_per_sm(f.l2_bandwidth_gbs, s.sms, s.clock_ghz);
  // A lone sector's request costs the tag pipe about what two streamed sectors cost the data
  // path (the H200 calibration: 1.63 against 0.904 cycles).
  set(Resource::L2Tag, f.l2_latency, 1.8 * l2_gap);
  set(Resource::L2, f.l2_latency, l2_gap);
  set(Resource::Dram, f.dram_latency, sector_gap_per_sm(s.dram_bandwidth_gbs, s.sms, s.clock_ghz));
  set(Resource::Atomic, f.l2_latency, l2_gap);  // performed in the L2 slices
  set(Resource::Branch, 4, 2);                  // [Z]
  set(Resource::Barrier, 20, 1);                // bar.sync with all warps arrived [Z]
  set(Resource::Issue, 1, 1);                   // one issue cycle per scheduler
  s.timing_source = "table";
}

// A100 SXM4 80 GB: HBM2e at 2.04 TB/s peak, of which about 90% is reachable by a copy.
GpuSpec ampere_a100() {
  GpuSpec s;
  s.arch = "sm_80";
  s.sms = 108;
  s.max_threads_per_sm = 2048;
  s.max_warps_per_sm = 64;
  s.max_blocks_per_sm = 32;
  s.max_threads_per_block = 1024;
  s.registers_per_sm = 65536;
  s.max_registers_per_thread = 255;
  s.register_alloc_unit = 256;
  s.register_partitions = 4;
  s.shared_per_sm = 164 * kKiB;
  s.max_shared_per_block = 163 * kKiB;
  s.reserved_shared_per_block = 1 * kKiB;
  s.shared_alloc_unit = 128;
  s.l2_bytes = 40 * kMiB;
  s.l2_partitions = 2;
  s.dram_bandwidth_gbs = 1.8e3;
  s.dram_latency_ns = 500;
  s.clock_ghz = 1.41;
  s.launch_overhead_us = 3.0;
  s.unified_l1_shared_bytes = 192 * kKiB;
  s.shared_carveouts = carveouts_kib({0, 8, 16, 32, 64, 100, 132, 164});  // A100 tuning guide
  // A100: 16 INT32, 16 FP32, 8 FP64 lanes per sub-partition; L2 ~4.5 TB/s sustained.
  fill_emulator_timing(s, {2, 2, 4, 23, 34, 200, 466, 4.5e3});
  return s;
}

// The sm_90 table as calibrated on an NVIDIA H200 (driver 580.159, SM clock measured 1.979 GHz)
// by model/calibration at commit ad7cafe: bench/data/calibration_h200.json holds every
// microbenchmark behind these figures. Gaps use the units of resource.h (per scheduler for
// the issue-side pipes, per SM and per sector for memory). Re-calibrating a device replaces
// them at run time; this is what a GPU-less ktune assumes for sm_90.
void use_h200_calibration(GpuSpec& s) {
  auto set = [&](Resource r, double latency, double gap) { timing(s.timing, r) = {latency, gap}; };
  set(Resource::IntAlu, 5.05, 1.03);
  set(Resource::Fp32, 4.14, 1.03);
  set(Resource::Fp64, 8.04, 2.00);
  set(Resource::Sfu, 17.0, 8.00);
  set(Resource::Shared, 23.0, 1.00);
  set(Resource::L1, 32.0, 0.254);
  set(Resource::L2Tag, 321, 1.63);  // 160 K requests/µs device-wide (ncu: about 158 K at peak)
  set(Resource::L2, 321, 0.904);    // 9.2 TB/s of L2 reads device-wide
  set(Resource::Dram, 663, 1.82);   // 4.6 TB/s; the chase includes TLB misses
  set(Resource::Atomic, 328, 2.60);
  set(Resource::Branch, 17.9, 3.78);
  set(Resource::Barrier, 28.2, 2.08);
  set(Resource::Issue, 1, 1.02);
  s.block_dispatch_cycles = 1.18;   // one block per 1.18 cycles on the whole device
  // One sector per line costs 1.58x a streamed sector in L1 and 3.55x from device memory
  // (which fetches more than the sector); four sectors per line cost what a stream does, as
  // the weights say. In L2 a lone sector is one request to the tag pipe (l2_tag) and one
  // sector of the data path (l2): the gather benchmark is bound by the first, streams by the
  // second.
  s.line_weights = {0.772, 3.40};
  s.timing_source = "table";
}

// H100 SXM5 (HBM3, 3.35 TB/s peak); an H200 shares the limits and has more of the figures
// (4.8 TB/s, 60 MB L2 enabled), which calibration picks up on the device.
GpuSpec hopper_h100() {
  GpuSpec s;
  s.arch = "sm_90";
  s.sms = 132;
  s.max_threads_per_sm = 2048;
  s.max_warps_per_sm = 64;
  s.max_blocks_per_sm = 32;
  s.max_threads_per_block = 1024;
  s.registers_per_sm = 65536;
  s.max_registers_per_thread = 255;
  s.register_alloc_unit = 256;
  s.register_partitions = 4;
  s.shared_per_sm = 228 * kKiB;
  s.max_shared_per_block = 227 * kKiB;
  s.reserved_shared_per_block = 1 * kKiB;
  s.shared_alloc_unit = 128;
  s.l2_bytes = 50 * kMiB;
  s.l2_partitions = 2;
  s.dram_bandwidth_gbs = 3.0e3;
  s.dram_latency_ns = 500;
  s.clock_ghz = 1.98;
  s.launch_overhead_us = 2.5;
  // bench/loop_launch_bench on an H200 (driver 580.159, 6d6fbbe; bench/results/loop_launch_h200.md):
  // a loop of N iterations of K tiny launches took 8.2 + N x 4.4 + (N x K + 1) x 0.8-1.05 µs.
  s.graph_launch_us = 8.2;
  s.loop_iteration_us = 4.4;
  s.graph_node_us = 0.9;
  // PageRank's per-warp atomicAdd of its L1 change into one sum (H100, f3c5394's sample): a
  // configuration with n more warps an iteration took 1.3-1.8 ns x n longer.
  s.same_address_atomic_ns = 1.4;
  // Union-find's edge pass over CC's whole space on an H200 (f8a2e99; kernels/cc/cc_contention.h):
  // the time beyond the first model's over the queued swaps, least squares on musae-github and
  // soc-Slashdot0902 at 1, 2 and 4 edges a thread: 57 ns a swap.
  s.queued_cas_ns = 57;
  s.unified_l1_shared_bytes = 256 * kKiB;
  s.shared_carveouts = carveouts_kib({0, 8, 16, 32, 64, 100, 132, 164, 196, 228});  // H100 tuning guide
  // H100: 16 INT32, 32 FP32, 16 FP64 lanes per sub-partition; L2 ~7 TB/s sustained.
  fill_emulator_timing(s, {2, 1, 2, 29, 33, 262, 479, 7.0e3});
  use_h200_calibration(s);
  return s;
}

}  // namespace

double line_weight_from_gaps(double scattered_gap, double line_gap) {
  if (!(line_gap > 0)) return 0;
  return std::max(0.0, (scattered_gap / line_gap - 1) * 4 / 3);
}

GpuSpec spec_for_arch(const std::string& arch) {
  if (arch == "sm_80") return ampere_a100();
  if (arch == "sm_90") return hopper_h100();
  throw InputError("unknown GPU architecture '" + arch + "'; known: sm_80, sm_90");
}

double launch_time_us(const GpuSpec& gpu, double launches, double loop_iterations) {
  if (loop_iterations <= 0 || gpu.loop_iteration_us <= 0) return gpu.launch_overhead_us * launches;
  return gpu.graph_launch_us + loop_iterations * gpu.loop_iteration_us + launches * gpu.graph_node_us;
}

}  // namespace ktune
