#include "kernels/cc/cc_estimate.h"

#include <algorithm>
#include <cmath>

#include "kernels/cc/cc_edges.h"
#include "kernels/graph/lane_group_work.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

constexpr int64_t kWarpSize = 32;
constexpr double kSectorBytes = 32;
constexpr double kIndexBytes = 4;
// A union-find trip's dependent round trips, on average over the lower and upper neighbours:
// (1 + 4) / 2.
constexpr double kUnionFindTripRoundTrips = 2.5;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

CcGraphDigest cc_graph_digest(const Workload& w) {
  const CcNeighbours neighbours = cc_neighbours(w);
  const auto* out_ptr = reinterpret_cast<const int32_t*>(neighbours.out->row_ptr.data());
  const auto* out_col = reinterpret_cast<const int32_t*>(neighbours.out->col_idx.data());
  const auto* rest_ptr = reinterpret_cast<const int32_t*>(neighbours.rest->row_ptr.data());
  const auto* rest_col = reinterpret_cast<const int32_t*>(neighbours.rest->col_idx.data());
  const int32_t n = vertex_count(w.matrix);
  CcGraphDigest g;
  g.both_ways = neighbours.both_ways;
  g.degrees.resize(static_cast<size_t>(n));
  for (int32_t v = 0; v < n; ++v) {
    g.degrees[static_cast<size_t>(v)] = out_ptr[v + 1] - out_ptr[v] + rest_ptr[v + 1] - rest_ptr[v];
    g.adjacency += g.degrees[static_cast<size_t>(v)];
  }
  g.edge_entries = cc_edge_list(w)->entries;
  if (n == 0) return g;
  // Breadth-first from vertex 0 over both lists.
  std::vector<int32_t> depth(static_cast<size_t>(n), -1), frontier = {0}, next;
  depth[0] = 0;
  const auto visit = [&](const int32_t* ptr, const int32_t* col, int32_t v) {
    for (int32_t k = ptr[v]; k < ptr[v + 1]; ++k)
      if (int32_t& d = depth[static_cast<size_t>(col[k])]; d < 0) {
        d = g.depth + 1;
        next.push_back(col[k]);
      }
  };
  while (true) {
    for (int32_t v : frontier) {
      visit(out_ptr, out_col, v);
      visit(rest_ptr, rest_col, v);
    }
    if (next.empty()) break;
    ++g.depth;
    frontier.swap(next);
    next.clear();
  }
  return g;
}

int64_t cc_expected_iterations(const CcGraphDigest& g, const CcConfig& c) {
  if (c.algorithm == CcAlgorithm::UnionFind) return 1;
  const bool collapses = c.algorithm == CcAlgorithm::Hooking || c.jumps > 0;
  const double hops = collapses ? std::ceil(std::log2(g.depth + 1.0)) : g.depth;
  return static_cast<int64_t>(hops) + 2;  // the last one finds nothing left to do
}

WorkEstimate estimate_cc(const CcGraphDigest& g, const CcConfig& c) {
  const auto n = static_cast<double>(g.degrees.size());
  const auto iterations = static_cast<double>(cc_expected_iterations(g, c));
  WorkEstimate e;
  e.threads_per_block = c.block;
  const bool by_vertex = c.schedule == CcSchedule::Vertex;
  const int64_t items = by_vertex ? static_cast<int64_t>(g.degrees.size()) : g.edge_entries;
  e.blocks = std::max<int64_t>(1, ceil_div(items, c.work_per_block()));
  if (by_vertex) {
    // Label propagation's neighbours' labels are independent loads the compiler unrolls four
    // deep; a link (hooking, union-find) waits on its own atomics.
    const int32_t in_flight = c.algorithm == CcAlgorithm::LabelPropagation ? 4 : 1;
    e.warp_work = lane_group_warp_work(g.degrees, c.block, c.lanes, c.items, e.blocks, in_flight);
  } else {
    // Every warp alike: one block's warps, repeated over the grid (a list of every warp of
    // R-MAT 22's edges was 16 MB an estimate, and a tune estimates side by side).
    e.warp_work.assign(static_cast<size_t>(ceil_div(c.block, kWarpSize)), static_cast<double>(c.items));
    e.warp_work_repeats = e.blocks;
  }
  for (float& w : e.warp_work) w *= iterations;
  if (c.algorithm == CcAlgorithm::UnionFind) {
    // A trip over a lower neighbour unites the two: each end's root found (a read, two where it
    // has been hooked) and the compare-and-swap, each waiting on the last; half the trips do.
    for (float& w : e.warp_work) w *= kUnionFindTripRoundTrips;
    e.rounds_read_dram = true;
  }
  // The vertex schedule reads a row pointer per list; the edge schedule an index an entry, a
  // chunk's row per 32 and the row pointers its searches touch (about each once).
  const double lists = g.both_ways ? 2 : 1;
  const auto entries = static_cast<double>(g.edge_entries);
  const double edge_pass = by_vertex ? kIndexBytes * (lists * (n + 1) + static_cast<double>(g.adjacency)) +
                                           kSectorBytes * static_cast<double>(g.adjacency) + 2 * kIndexBytes * n
                                     : kIndexBytes * (entries + entries / kCcChunk + n + 1) + 2 * kSectorBytes * entries;
  e.unit_waits_on_load = true;  // a round reads a label at the index it just read
  const double jumping = c.jumps > 0 ? 2 * kIndexBytes * n + kSectorBytes * n * c.jumps : 0;
  // The labels every pass gathers (a sector each) come from one array of n.
  const double gathered_per_pass =
      kSectorBytes * (by_vertex ? static_cast<double>(g.adjacency) : 2 * entries);
  e.gather_footprint = kIndexBytes * n;
  if (c.algorithm == CcAlgorithm::UnionFind) {
    // Each edge's two finds read a root's label beyond its ends' (paths stay short: halving);
    // the compression reads a label and its root's per vertex and writes one.
    const double finds = 2 * kSectorBytes * entries;
    e.dram_bytes = kIndexBytes * n + edge_pass + finds + 2 * kIndexBytes * n + kSectorBytes * n;
    e.gather_bytes = gathered_per_pass + finds;
    return e;
  }
  e.dram_bytes = kIndexBytes * n + iterations * (edge_pass + jumping);
  e.gather_bytes = iterations * gathered_per_pass;
  e.loop_iterations = iterations;
  return e;
}

void charge_union_rounds(WorkEstimate& e, const UnionRounds& rounds) {
  e.queued_swaps = static_cast<double>(rounds.queued_swaps);
  const double failed_bytes = kSectorBytes * static_cast<double>(rounds.failed_swaps);
  e.gather_bytes += failed_bytes;
  e.dram_bytes += failed_bytes;
}

double cc_min_bytes(const CcGraphDigest& g) {
  const auto n = static_cast<double>(g.degrees.size());
  return kIndexBytes * (n + 1 + static_cast<double>(g.adjacency)) + kIndexBytes * n;
}

}  // namespace ktune
