#include "kernels/sssp/sssp_estimate.h"

#include <algorithm>
#include <cmath>

#include "kernels/graph/expansion_work.h"

namespace ktune {

namespace {
// An edge's relaxation (sssp_relax.cu), one link waiting on the other: the head and weight, the
// head's distance, then three atomics (the distance lowered, the stamp, the queue's tail), each a
// read-modify-write at L2 that takes about two loads' round trips.
constexpr int32_t kRelaxRoundTrips = 1 + 1 + 3 * 2;
// A pass's end (sssp_pass_end): one thread reads the queue's count, then sets the next pass's.
constexpr double kPassEndRoundTrips = 2;
}  // namespace

WorkEstimate estimate_sssp(const Workload& w, const SsspShape& shape, const SsspConfig& c, const SsspPassWork& passes) {
  const double n = std::max(1, shape.vertices);
  const double m = std::max<double>(1, static_cast<double>(shape.edges));
  const double sources = static_cast<double>(shape.sources.size());
  const double scanned = static_cast<double>(passes.edges);
  WorkEstimate e;
  // Each scanned edge reads its head and weight and gathers the head's distance; each queued
  // vertex its queue slot and row bounds; each sweep a pending flag and a distance per vertex.
  e.dram_bytes = sources * (scanned * (8 + 32) + static_cast<double>(passes.queued) * 16 +
                            static_cast<double>(passes.sweeps) * n * 8);
  e.gather_bytes = sources * scanned * 32;  // the heads' distances
  e.gather_footprint = n * 4;
  e.threads_per_block = c.block;
  const ExpansionSchedule schedule{static_cast<int>(c.balance), c.block, c.coarsen, c.batch, kRelaxRoundTrips};
  const std::shared_ptr<const ExpansionWork> expansion = expansion_work(w, schedule);
  e.warp_work.assign(expansion->warp_work.begin(), expansion->warp_work.end());
  e.blocks = expansion->blocks;
  // The profile is one expansion over every vertex's edges: each source scans `scanned` of them.
  for (float& work : e.warp_work) work *= scanned / m * sources;
  // Each pass its share of the scanned edges, or its slowest lane's chain and its end's; the
  // first source's passes stand for every source's.
  for (const Frontier& f : passes.frontiers)
    e.steps.push_back({scanned > 0 ? static_cast<double>(f.edges) / scanned : 0,
                       expansion_chain_round_trips(schedule, f) + kPassEndRoundTrips});
  e.step_repeats = static_cast<int64_t>(sources);
  e.loop_iterations = sources * static_cast<double>(passes.passes);
  e.unit_waits_on_load = true;  // a round reads the head's distance at the index it just read
  e.loads_in_flight = c.batch;
  return e;
}

double sssp_min_bytes(const SsspShape& shape) {
  const double n = shape.vertices;
  return 4 * (n + 1) + 8 * static_cast<double>(shape.edges) + 4 * n * static_cast<double>(shape.sources.size());
}

}  // namespace ktune
