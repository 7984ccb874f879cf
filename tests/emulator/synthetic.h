#pragma once
// Synthetic programs and traces for the emulator tests.
#include <cstdint>
#include <vector>

#include "model/emulator/emu_program.h"
#include "model/emulator/sm_emulator.h"
#include "model/gpu_spec.h"
#include "model/trace.h"

namespace ktune::test {

inline EmuOp op_on(Resource r, uint32_t count = 1, uint32_t dep = kNoDep, uint32_t region = 0) {
  EmuOp op;
  op.uses[0] = {r, count, static_cast<double>(count)};
  op.use_count = 1;
  op.deps[0] = dep;
  op.region = region;
  return op;
}

inline EmuOp barrier_op() {
  EmuOp op;
  op.barrier = true;
  return op;
}

// One scheduler issuing once per cycle, every resource {latency 1, gap 1}.
inline EmulatorTiming single_scheduler() {
  EmulatorTiming t;
  t.schedulers = 1;
  t.issue_per_scheduler = 1;
  for (auto& r : t.table) r = {1, 1};
  return t;
}

// `chains` independent chains of `length` dependent ops on one resource: as `chains` warps
// (thread-level parallelism) or interleaved in one warp (instruction-level parallelism).
inline EmuBlock chains_block(Resource r, int chains, int length, bool in_one_warp) {
  EmuBlock b;
  if (in_one_warp) {
    b.warps.resize(1);
    for (int p = 0; p < length; ++p)
      for (int c = 0; c < chains; ++c)
        b.warps[0].ops.push_back(op_on(r, 1, p == 0 ? kNoDep : static_cast<uint32_t>((p - 1) * chains + c)));
  } else {
    b.warps.resize(chains);
    for (auto& w : b.warps)
      for (int p = 0; p < length; ++p) w.ops.push_back(op_on(r, 1, p == 0 ? kNoDep : p - 1));
  }
  return b;
}

inline TraceOp trace_op(OpClass c, uint16_t transactions = 1, uint32_t dep = kNoDep, uint32_t region = 0) {
  TraceOp op;
  op.op = c;
  op.transactions = transactions;
  op.deps[0] = dep;
  op.region = region;
  return op;
}

// Appends a global load of the given sectors to a warp trace.
inline void add_load(WarpTrace& w, const std::vector<uint64_t>& sectors, uint32_t region = 0,
                     uint32_t dep = kNoDep) {
  TraceOp op = trace_op(OpClass::GlobalLoad, static_cast<uint16_t>(sectors.size()), dep, region);
  op.sector_begin = static_cast<uint32_t>(w.sectors.size());
  w.sectors.insert(w.sectors.end(), sectors.begin(), sectors.end());
  w.ops.push_back(op);
}

// A GPU whose emulator figures are simple round numbers: four schedulers, no launch cost.
inline GpuSpec simple_gpu() {
  GpuSpec g = spec_for_arch("sm_90");
  g.launch_overhead_us = 0;
  g.block_dispatch_cycles = 0;  // the formulas' single resources, no block scheduler
  g.line_weights = {};          // and every sector costs one gap, however scattered
  for (auto& r : g.timing) r = {4, 1};
  timing(g.timing, Resource::Dram) = {400, 2};
  timing(g.timing, Resource::L2) = {200, 1};
  timing(g.timing, Resource::L1) = {30, 0.25};
  return g;
}

}  // namespace ktune::test
