#pragma once
// The first cost model's view of an SSSP configuration, without running it.
//
// What it assumes: every vertex is reached from every source; Bellman-Ford relaxes each edge
// about twice (a vertex re-queued once after a shorter path arrives) over about 4 log2(n)
// passes; delta-stepping relaxes each edge 1 + delta / 8 times (smaller buckets settle more
// vertices for good) over two passes and one sweep of n vertices per bucket, with about
// 2 log2(n) / delta buckets (distances of ~2 log2(n) mean-weight edges). Each relaxation reads
// the edge's head and weight (8 bytes) and gathers the head's distance (a 32-byte sector, from
// DRAM only where L2 cannot hold the distances). The warps' work is that of one relaxation over
// every vertex under the configuration's schedule, per source, each round waiting on the
// relaxation's chain of round trips once for a thread's whole batch of edges. Guesses the
// emulator, which follows the real loop, corrects.
#include "kernels/kernel_family.h"
#include "kernels/sssp/sssp_config.h"
#include "kernels/sssp/sssp_plan.h"

namespace ktune {

WorkEstimate estimate_sssp(const Workload& w, const SsspShape& shape, const SsspConfig& c);
// One pass: the CSR with its weights read (row pointers, heads and weights, 4 bytes each) and
// every source's distances written once (the least any algorithm moves; also what must fit on
// the device).
double sssp_min_bytes(const SsspShape& shape);

}  // namespace ktune
