#pragma once
// What the cost model needs to know of a GPU: its limits (from the CUDA programming guide's
// compute capability tables) and a few performance figures, which calibration on the real
// device will replace.
#include <cstdint>
#include <string>
#include <vector>

#include "model/resource.h"

namespace ktune {

// What a warp's global access costs per 128-byte line it requests, beyond its 32-byte sectors,
// at L1 and device memory, in units of that level's sector gap (the gap of full-line streams):
// an access of s sectors in n lines costs s (1 - w/4) + n w gaps, so full lines (s = 4n) cost s
// and one sector per line 1 + 3w/4 each. Calibrated by the gather benchmarks (32 lines per
// warp access against the streams); 0, sectors only, for an architecture never calibrated.
// L1 counts the lines of each access; device memory counts a line at a block's first request
// for it (the cache estimate, cache_estimate.h). L2 needs no weight: its lines are requests to
// its own tag pipe (Resource::L2Tag) and its sectors go through its data path (Resource::L2).
struct LineWeights {
  double l1 = 0;
  double dram = 0;
};

// The gaps an access of `sectors` sectors in `lines` lines occupies at a level of weight `w`.
inline double access_cost(double sectors, double lines, double w) { return sectors * (1 - w / 4) + lines * w; }

// The weight that makes a one-sector-per-line access cost `scattered_gap` per sector when
// full lines cost `line_gap` per sector (never below 0: a level no slower scattered).
double line_weight_from_gaps(double scattered_gap, double line_gap);

struct GpuSpec {
  std::string arch;  // "sm_90"
  int sms = 0;
  int max_threads_per_sm = 0;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_threads_per_block = 0;
  int registers_per_sm = 0;
  int max_registers_per_thread = 0;
  int register_alloc_unit = 0;  // registers granted to a warp at a time
  int register_partitions = 0;  // sub-partitions of the register file; a warp lives in one
  int shared_per_sm = 0;        // bytes, with the largest shared-memory carveout
  int max_shared_per_block = 0;
  int reserved_shared_per_block = 0;  // taken by the driver from every block
  int shared_alloc_unit = 0;
  int64_t l2_bytes = 0;
  // L2 is split in partitions, each caching what the SMs of its own GPCs read (A100 and H100
  // whitepapers): a vector that SMs on every side gather from is held once per partition.
  int l2_partitions = 1;
  double dram_bandwidth_gbs = 0;  // sustained, not the datasheet peak
  double dram_latency_ns = 0;
  double clock_ghz = 0;
  double launch_overhead_us = 0;  // back-to-back launches on one stream
  // A program with a loop runs as one CUDA graph of conditional while-nodes
  // (gpu/device_loop_graph.h): the graph's launch, each iteration's turn of its loop and each
  // node it runs (a kernel, a fill, a copy) cost these instead (bench/loop_launch_bench; 0:
  // not measured, its launches are charged as on a stream).
  double graph_launch_us = 0;
  double loop_iteration_us = 0;
  double graph_node_us = 0;
  // The block scheduler hands out one block per this many cycles on the whole device: a grid
  // of many short blocks is bound by it (calibration's block_dispatch_gap; 0, not modelled, for
  // an architecture never calibrated).
  double block_dispatch_cycles = 0;
  // Atomics on one address follow one another at this interval (0: not modelled).
  double same_address_atomic_ns = 0;
  // A compare-and-swap queued behind another on one address, each loser retrying where the
  // winner's swap sent it, costs its round of threads this long (0: not modelled).
  double queued_cas_ns = 0;
  // What the abstract emulator needs (digest-000 §2.2); calibration replaces the defaults.
  int schedulers_per_sm = 0;
  int issue_per_scheduler = 0;  // instructions a scheduler issues per cycle
  // L1 and shared memory are one array per SM; the driver sets aside, per kernel, the smallest
  // shared carveout that the resident blocks need, and the rest is L1 (l1_bytes_per_sm).
  int64_t unified_l1_shared_bytes = 0;
  std::vector<int> shared_carveouts;  // the carveouts the architecture offers, bytes, ascending
  ResourceTable timing{};       // latency and gap per resource, cycles
  LineWeights line_weights;     // what scattered accesses cost over streamed ones
  std::string timing_source = "table";  // "table" or "calibrated <fingerprint>"
};

// The built-in description of an architecture ("sm_80", "sm_90"); throws InputError naming
// the known ones otherwise.
GpuSpec spec_for_arch(const std::string& arch);

// What a plan's launches cost beyond its kernels' work: `launches` kernels, fills and copies on a
// stream, or, where the plan loops on the device (`loop_iterations` > 0), the graph that runs
// them. The first cost model and the emulator both charge this.
double launch_time_us(const GpuSpec& gpu, double launches, double loop_iterations);

}  // namespace ktune
