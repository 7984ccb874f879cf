#pragma once
// The first cost model's view of an SSSP configuration, without running it.
//
// What it assumes: every source does the work the first one does, as followed on the host
// (sssp_passes.h: passes, sweeps, edges scanned, queue entries for the configuration's
// algorithm and Δ). Each scanned edge reads its head and weight (8 bytes) and gathers the head's
// distance (a 32-byte sector, from DRAM only where L2 cannot hold the distances). The warps' work
// is that of one relaxation over every vertex under the configuration's schedule, scaled by the
// edges scanned, each round waiting on the relaxation's chain of round trips once for a thread's
// whole batch of edges. Guesses the emulator, which follows the real loop, corrects.
#include "kernels/kernel_family.h"
#include "kernels/sssp/sssp_config.h"
#include "kernels/sssp/sssp_passes.h"
#include "kernels/sssp/sssp_plan.h"

namespace ktune {

WorkEstimate estimate_sssp(const Workload& w, const SsspShape& shape, const SsspConfig& c, const SsspPassWork& passes);
// One pass: the CSR with its weights read (row pointers, heads and weights, 4 bytes each) and
// every source's distances written once (the least any algorithm moves; also what must fit on
// the device).
double sssp_min_bytes(const SsspShape& shape);

}  // namespace ktune
