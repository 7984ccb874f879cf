#pragma once
// SSSP's work pass by pass as sssp_relax and sssp_sweep do it, followed on the host: how many
// passes and bucket sweeps a configuration's algorithm and Δ take on this graph, and how many
// edges it scans (the rework a formula can only guess: a large Δ settles a road network in a
// few sweeps but re-relaxes a random graph's edges). One thread here, so a pass sees its own
// improvements in queue order, as the GPU's does in part: counts between the GPU's best and
// worst cases.
#include <cstdint>
#include <vector>

#include "kernels/graph/expansion_work.h"
#include "kernels/sssp/sssp_weights.h"
#include "workload/csr_matrix.h"

namespace ktune {

struct SsspPassWork {
  int64_t passes = 0;        // relaxation launches
  int64_t sweeps = 0;        // far-set sweeps over every vertex (delta-stepping)
  int64_t edges = 0;         // edges scanned
  int64_t queued = 0;        // queue entries over all passes
  bool cut_short = false;    // the walk passed its budget: every count a lower bound
  // Each pass's queue (a sweep's finds start the pass after it); past 2^16 passes, the rest as one.
  std::vector<Frontier> frontiers;
};

// Steps (edges scanned plus vertices swept) a walk takes at most: about a second on one core.
// A small Δ on a long road network sweeps every vertex once a bucket, millions of times; such a
// configuration is slow on the GPU for the same reason, and its lower bound already says so.
constexpr int64_t kSsspWalkBudget = int64_t{1} << 28;

// From `source`, with one weight per nonzero; `delta` in distance units, 0 for Bellman-Ford.
SsspPassWork follow_sssp_passes(const CsrF64& graph, const SsspWeights& weights, int32_t source,
                                double delta, int64_t budget = kSsspWalkBudget);

}  // namespace ktune
