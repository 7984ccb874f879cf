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
}  // namespace

WorkEstimate estimate_sssp(const Workload& w, const SsspShape& shape, const SsspConfig& c) {
  const double n = std::max(1, shape.vertices);
  const double m = static_cast<double>(shape.edges);
  const double sources = static_cast<double>(shape.sources.size());
  const double log_n = std::max(2.0, std::ceil(std::log2(n + 1)));
  double rework = 2, passes = 4 * log_n, sweep_bytes = 0;
  if (c.delta_stepping()) {
    const double buckets = std::max(1.0, 2 * log_n / c.delta);
    rework = 1 + std::min(1.0, c.delta / 8.0);
    passes = 2 * buckets;
    sweep_bytes = buckets * n * 8;  // a pending flag and a distance per vertex
  }
  WorkEstimate e;
  e.dram_bytes = sources * (rework * (m * (8 + 32) + n * 16) + sweep_bytes);
  e.gather_bytes = sources * rework * m * 32;  // the heads' distances
  e.gather_footprint = n * 4;
  e.threads_per_block = c.block;
  const std::shared_ptr<const ExpansionWork> expansion =
      expansion_work(w, {static_cast<int>(c.balance), c.block, c.coarsen, c.batch, kRelaxRoundTrips});
  e.warp_work.assign(expansion->warp_work.begin(), expansion->warp_work.end());
  e.blocks = expansion->blocks;
  for (double& w : e.warp_work) w *= rework * sources;  // each source relaxes its own passes
  e.launches = static_cast<int32_t>(std::min(1e9, sources * (1 + passes * (c.delta_stepping() ? 3 : 2))));
  e.unit_waits_on_load = true;  // a round reads the head's distance at the index it just read
  e.loads_in_flight = c.batch;
  return e;
}

double sssp_min_bytes(const SsspShape& shape) {
  const double n = shape.vertices;
  return 4 * (n + 1) + 8 * static_cast<double>(shape.edges) + 4 * n * static_cast<double>(shape.sources.size());
}

}  // namespace ktune
