#pragma once
// The small graphs the connected-components and PageRank tests run on: shapes whose answers
// are known (a path: the longest chain of hops; a star: one hub), several components with
// isolated vertices (one past the last row of the adjacency), a directed graph (edges one
// way only), and R-MAT graphs (power-law degrees, dense and sparse).
#include <string>
#include <utility>
#include <vector>

#include "workload/csr_builder.h"
#include "workload/generators.h"
#include "workload/workload.h"

// In a namespace of their own: other suites linked into the same test binary have helpers of
// the same names (tests/kernels/bfs_graphs.h), and two inline definitions would clash.
namespace ktune::testing_support::graph_case {

// `rows` rows and `vertices` columns; each edge u -> v (and v -> u when `both_ways`).
inline CsrF64 graph_of(int32_t rows, int32_t vertices, const std::vector<std::pair<int32_t, int32_t>>& edges,
                       bool both_ways) {
  CooPart part;
  for (const auto& [u, v] : edges) part.add(u, v, 1.0);
  std::vector<CooPart> parts;
  parts.push_back(std::move(part));
  return build_csr(rows, vertices, std::move(parts), both_ways ? Mirror::Symmetric : Mirror::None,
                   Duplicates::KeepFirst);
}

inline CsrF64 path(int32_t n) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int32_t v = 0; v + 1 < n; ++v) edges.emplace_back(v, v + 1);
  return graph_of(n, n, edges, true);
}

// The hub is the last vertex: labels have to come from far away in id order.
inline CsrF64 star(int32_t n) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int32_t v = 0; v + 1 < n; ++v) edges.emplace_back(n - 1, v);
  return graph_of(n, n, edges, true);
}

// A triangle {3, 7, 9}, a path 12-4-1-10, a pair {0, 13}, a self-loop on 6, and isolated
// vertices 2, 5, 8, 11 and 14 (14 past the last row: 14 rows, 15 vertices).
inline CsrF64 components() {
  return graph_of(14, 15, {{3, 7}, {7, 9}, {9, 3}, {12, 4}, {4, 1}, {1, 10}, {0, 13}, {6, 6}}, true);
}

// Edges one way only: a cycle 5 -> 6 -> 7 -> 5 fed by a chain 0 -> 1 -> 5, a vertex 9 with only
// an in-edge from 8, and 2 -> 3 <- 4 (3 a sink). Weakly: {0, 1, 5, 6, 7}, {8, 9}, {2, 3, 4}.
inline CsrF64 directed() {
  return graph_of(10, 10, {{5, 6}, {6, 7}, {7, 5}, {0, 1}, {1, 5}, {8, 9}, {2, 3}, {4, 3}}, false);
}

inline Workload graph(CsrF64 m) {
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = std::move(m);
  return w;
}

inline std::vector<std::pair<std::string, Workload>> all() {
  return {{"path", graph(path(300))},
          {"star", graph(star(200))},
          {"components", graph(components())},
          {"directed", graph(directed())},
          {"rmat", graph(generate_rmat(8, 8, 3))},
          {"sparse rmat", graph(generate_rmat(8, 1, 5))}};
}

}  // namespace ktune::testing_support::graph_case
