#include "kernels/pagerank/pagerank_estimate.h"

#include <algorithm>
#include <cmath>

#include "kernels/graph/lane_group_work.h"
#include "workload/breadth_first.h"
#include "workload/workload.h"

namespace ktune {

namespace {

constexpr double kSectorBytes = 32;
constexpr double kIndexBytes = 4;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

PagerankGraphDigest pagerank_graph_digest(const CsrF64& graph) {
  const int32_t n = vertex_count(graph);
  PagerankGraphDigest g;
  g.out_degrees.resize(static_cast<size_t>(n));
  g.in_degrees.assign(static_cast<size_t>(n), 0);
  for (int32_t v = 0; v < n; ++v) g.out_degrees[static_cast<size_t>(v)] = out_degree(graph, v);
  for (int32_t v : graph.col_idx) ++g.in_degrees[static_cast<size_t>(v)];
  g.edges = graph.nnz();
  constexpr int kSpans = 14;  // up to 8192 vertices a block: every span the space makes
  g.dangling_runs.assign(kSpans, 0);
  std::vector<int64_t> last_run(kSpans, -1);
  for (int32_t v = 0; v < n; ++v)
    if (g.out_degrees[static_cast<size_t>(v)] == 0)
      for (int k = 0; k < kSpans; ++k)
        if (v >> k != last_run[static_cast<size_t>(k)]) {
          last_run[static_cast<size_t>(k)] = v >> k;
          ++g.dangling_runs[static_cast<size_t>(k)];
        }
  return g;
}

int64_t PagerankGraphDigest::dangling_runs_of(int64_t span) const {
  int k = 0;
  while ((int64_t{1} << (k + 1)) <= span && k + 1 < static_cast<int>(dangling_runs.size())) ++k;
  return dangling_runs.empty() ? 0 : dangling_runs[static_cast<size_t>(k)];
}

int64_t pagerank_expected_iterations(const PagerankProblem& p) {
  const double iterations = std::ceil(std::log(p.tolerance / (2 * p.damping)) / std::log(p.damping)) + 1;
  return std::clamp<int64_t>(static_cast<int64_t>(iterations), 1, p.max_iterations);
}

WorkEstimate estimate_pagerank(const PagerankGraphDigest& g, const PagerankConfig& c, Dtype dtype, int64_t run_iterations) {
  const auto n = static_cast<double>(g.out_degrees.size());
  const auto m = static_cast<double>(g.edges);
  const auto value = static_cast<double>(dtype_size(dtype));
  const auto iterations = static_cast<double>(std::max<int64_t>(run_iterations, 1));
  WorkEstimate e;
  e.threads_per_block = c.block;
  const double csr = kIndexBytes * (n + 1 + m);
  double per_iteration = 0;
  if (c.direction == PagerankDirection::PullEdges) {
    // Every thread the same: its edges, and a five-step segmented sum for each.
    e.blocks = std::max<int64_t>(1, ceil_div(g.edges, c.items_per_block()));
    e.warp_work.assign(static_cast<size_t>(e.blocks * std::max(1, c.block / 32)), 6.0 * c.items * iterations);
    // The heads and tails of the edges, the contributions gathered (a sector each), the
    // contributions, ranks and `next` written and read.
    per_iteration = 2 * kIndexBytes * m + kIndexBytes * n + kSectorBytes * m + 6 * value * n;
  } else {
    const bool pull = c.direction == PagerankDirection::Pull;
    e.blocks = std::max<int64_t>(1, ceil_div(static_cast<int64_t>(g.out_degrees.size()), c.items_per_block()));
    // A lane's edges are independent: the pull's loop is unrolled four deep, and a push's
    // atomics return nothing to wait for.
    e.warp_work = lane_group_warp_work(pull ? g.in_degrees : g.out_degrees, c.block, c.lanes, c.items, e.blocks, 4);
    // A pull's round waits on an in-edge's tail, then on the contribution gathered there; a
    // push's on an out-edge's head only (its atomicAdd returns nothing to wait for).
    const double round_trips = pull ? 2 : 1;
    for (float& w : e.warp_work) w *= iterations * round_trips;
    // A warp's groups gather for their own vertices: 32 / lanes independent streams of sectors
    // in a round where the model counts four lines.
    e.loads_in_flight = std::max(1.0, 32.0 / c.lanes / 4);
    per_iteration = pull ? kIndexBytes * n + 2 * value * n + csr + kSectorBytes * m + 2 * value * n
                         : csr + value * n + kSectorBytes * m + 4 * value * n;
  }
  e.dram_bytes = value * n + iterations * per_iteration;
  // Each block adds its share of the change (pull, finish) or of the dangling rank (contrib,
  // scatter) to one sum with one atomic; the one-thread check ends the iteration.
  const double vertex_blocks = std::ceil(n / c.block);
  const auto pass_blocks = static_cast<double>(e.blocks);
  const auto dangling_vertex_blocks = static_cast<double>(g.dangling_runs_of(c.block));
  double serial = 0, dispatched = 1;
  switch (c.direction) {
    case PagerankDirection::Pull:
      serial = dangling_vertex_blocks + pass_blocks;
      dispatched += vertex_blocks + pass_blocks;
      break;
    case PagerankDirection::Push:
      serial = static_cast<double>(g.dangling_runs_of(c.items_per_block())) + vertex_blocks;
      dispatched += pass_blocks + vertex_blocks;
      break;
    case PagerankDirection::PullEdges:
      serial = dangling_vertex_blocks + vertex_blocks;
      dispatched += 2 * vertex_blocks + pass_blocks;
      break;
  }
  e.serial_atomics = iterations * serial;
  e.blocks_dispatched = iterations * dispatched;
  // The contributions each edge gathers (a sector each) come from one vector of n values; a
  // push's atomics land in one vector of n values the same way.
  e.gather_bytes = iterations * kSectorBytes * m;
  e.gather_footprint = value * n;
  if (c.direction == PagerankDirection::Push) e.scattered_atomic_bytes = e.gather_bytes;  // atomicAdd into `next`
  e.loop_iterations = static_cast<double>(iterations);
  e.unit_waits_on_load = true;  // a round reads a rank at the index it just read
  return e;
}

double pagerank_min_bytes(const PagerankGraphDigest& g, Dtype dtype) {
  const auto n = static_cast<double>(g.out_degrees.size());
  return kIndexBytes * (n + 1 + static_cast<double>(g.edges)) + kIndexBytes * n +
         2 * static_cast<double>(dtype_size(dtype)) * n;
}

}  // namespace ktune
