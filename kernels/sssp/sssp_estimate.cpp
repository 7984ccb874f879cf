#include "kernels/sssp/sssp_estimate.h"

#include <algorithm>
#include <cmath>

#include "kernels/graph/lane_group_work.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Work per warp of one relaxation over every vertex: lane groups for a thread or warp per
// vertex; a block per vertex spreads each vertex over all its warps.
std::vector<double> relaxation_warp_work(const CsrF64& graph, const SsspShape& shape, const SsspConfig& c,
                                         int64_t& blocks) {
  std::vector<int32_t> degrees(static_cast<size_t>(std::max(shape.vertices, 0)));
  for (int32_t v = 0; v < shape.vertices; ++v) degrees[static_cast<size_t>(v)] = out_degree(graph, v);
  blocks = std::max<int64_t>(1, ceil_div(shape.vertices, c.tile_items()));
  if (c.balance != SsspBalance::Block)
    return lane_group_warp_work(degrees, c.block, c.balance == SsspBalance::Warp ? 32 : 1, c.coarsen, blocks);
  const int64_t warps = c.block / 32;
  std::vector<double> work(static_cast<size_t>(blocks * warps), 0.0);
  for (int64_t b = 0; b < blocks; ++b) {
    double rounds = 0;
    for (int64_t k = 0; k < c.coarsen; ++k) {
      const int64_t v = b * c.coarsen + k;
      if (v < shape.vertices) rounds += 2 + std::ceil(degrees[static_cast<size_t>(v)] / static_cast<double>(c.block));
    }
    std::fill_n(work.begin() + b * warps, warps, rounds);
  }
  return work;
}

}  // namespace

WorkEstimate estimate_sssp(const CsrF64& graph, const SsspShape& shape, const SsspConfig& c) {
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
  e.threads_per_block = c.block;
  e.warp_work = relaxation_warp_work(graph, shape, c, e.blocks);
  for (double& w : e.warp_work) w *= rework;
  e.launches = static_cast<int32_t>(std::min(1e9, sources * (1 + passes * (c.delta_stepping() ? 3 : 2))));
  return e;
}

double sssp_min_bytes(const SsspShape& shape) {
  const double n = shape.vertices;
  return 4 * (n + 1) + 8 * static_cast<double>(shape.edges) + 4 * n * static_cast<double>(shape.sources.size());
}

}  // namespace ktune
