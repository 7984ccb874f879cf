#include "workload/graph_features.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "workload/breadth_first.h"
#include "workload/graph_sources.h"
#include "workload/parallel.h"

namespace ktune {

namespace {

constexpr int64_t kReciprocitySample = int64_t{1} << 20;
// Edges the sampled BFS may scan together: four BFS up to 2^24 edges, one beyond 2^26 (a BFS
// scans at most every edge once). About a tenth of a second per 2^24 edges.
constexpr int64_t kTraversalEdges = int64_t{1} << 26;
constexpr int kMaxTraversals = 4;

bool has_edge(const CsrF64& g, int32_t from, int32_t to) {
  if (from >= g.rows) return false;
  const auto first = g.col_idx.begin() + g.row_ptr[from], last = g.col_idx.begin() + g.row_ptr[from + 1];
  return std::binary_search(first, last, to);
}

// Every `stride`-th edge, in row order.
double reciprocity(const CsrF64& g) {
  const int64_t stride = std::max<int64_t>(1, g.nnz() / kReciprocitySample);
  int64_t checked = 0, returned = 0;
  for (int32_t u = 0; u < g.rows; ++u) {
    int64_t k = g.row_ptr[u] + (stride - g.row_ptr[u] % stride) % stride;
    for (; k < g.row_ptr[u + 1]; k += stride) {
      const int32_t v = g.col_idx[static_cast<size_t>(k)];
      if (v == u) continue;
      ++checked;
      returned += has_edge(g, v, u);
    }
  }
  return checked == 0 ? 1.0 : static_cast<double>(returned) / static_cast<double>(checked);
}

// The deepest vertex with out-edges, the smallest such id at that depth; nullopt when only the source has any.
std::optional<int32_t> farthest_with_out_edges(const CsrF64& g, const BreadthFirst& bfs, int32_t source) {
  int32_t best = source;
  for (int32_t v = 0; v < static_cast<int32_t>(bfs.depth.size()); ++v)
    if (bfs.depth[static_cast<size_t>(v)] > bfs.depth[static_cast<size_t>(best)] && out_degree(g, v) > 0) best = v;
  if (best == source) return std::nullopt;
  return best;
}

struct TraversalSummary {
  int64_t depth = 0, reached = 0, widest = 0;
};

TraversalSummary summarise(const BreadthFirst& bfs) {
  TraversalSummary s;
  s.depth = static_cast<int64_t>(bfs.level_sizes.size()) - 1;
  for (int64_t size : bfs.level_sizes) {
    s.reached += size;
    s.widest = std::max(s.widest, size);
  }
  return s;
}

}  // namespace

bool GraphFeatures::operator==(const GraphFeatures& other) const {
  return nlohmann::json(*this) == nlohmann::json(other);
}

GraphFeatures compute_graph_features(const CsrF64& graph) {
  GraphFeatures f;
  f.reciprocity = reciprocity(graph);
  f.directed = f.reciprocity < 1;
  const int32_t n = vertex_count(graph);
  const std::vector<int32_t> sources = seeded_sources(graph, kMaxTraversals / 2);
  if (sources.empty()) return f;
  const int budget = static_cast<int>(
      std::clamp<int64_t>(kTraversalEdges / std::max<int64_t>(graph.nnz(), 1), 1, kMaxTraversals));
  // Traversal i is step i / 2 of chain i % 2: a seeded source, then the farthest vertex it reached.
  std::array<std::vector<TraversalSummary>, 2> chains;
  parallel_for(static_cast<int>(sources.size()), 2, [&](int c) {
    int32_t source = sources[static_cast<size_t>(c)];
    for (int step = 0; 2 * step + c < budget; ++step) {
      const BreadthFirst bfs = breadth_first(graph, source);
      chains[static_cast<size_t>(c)].push_back(summarise(bfs));
      const std::optional<int32_t> far = farthest_with_out_edges(graph, bfs, source);
      if (!far) break;
      source = *far;
    }
  });
  for (const std::vector<TraversalSummary>& chain : chains)
    for (const TraversalSummary& t : chain) {
      ++f.traversals;
      f.diameter_estimate = std::max(f.diameter_estimate, t.depth);
      f.reach += static_cast<double>(t.reached) / n;
      f.frontier_peak = std::max(f.frontier_peak, static_cast<double>(t.widest) / n);
    }
  f.reach /= static_cast<double>(f.traversals);
  return f;
}

}  // namespace ktune
