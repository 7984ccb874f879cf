#include "kernels/sssp/sssp_reference.h"

#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "workload/breadth_first.h"

namespace ktune {

std::vector<double> dijkstra(const CsrF64& graph, const SsspWeights& weights, int32_t source,
                             double unreached) {
  const auto n = static_cast<size_t>(vertex_count(graph));
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  std::vector<double> dist(n, kInfinity);
  using Entry = std::pair<double, int32_t>;  // (distance, vertex): a min-heap with lazy deletion
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  dist[static_cast<size_t>(source)] = 0;
  heap.emplace(0.0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[static_cast<size_t>(u)] || u >= graph.rows) continue;  // stale, or past the last row
    for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k) {
      const int32_t v = graph.col_idx[static_cast<size_t>(k)];
      const double offer = d + weights[static_cast<size_t>(k)];
      if (offer < dist[static_cast<size_t>(v)]) {
        dist[static_cast<size_t>(v)] = offer;
        heap.emplace(offer, v);
      }
    }
  }
  for (double& d : dist)
    if (d == kInfinity) d = unreached;
  return dist;
}

}  // namespace ktune
