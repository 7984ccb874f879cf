#pragma once
// Small graphs that a BFS must get right, for the BFS tests: deep, skewed, random, directed
// with unreachable parts, and with isolated vertices.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "workload/csr_builder.h"
#include "workload/generators.h"

namespace ktune::testing_support {

// A CSR adjacency of `rows` rows (vertices past them have no out-edges) over `vertices` columns.
inline CsrF64 graph_of_edges(int32_t rows, int32_t vertices, const std::vector<std::pair<int32_t, int32_t>>& edges) {
  CooPart part;
  for (const auto& [u, v] : edges) part.add(u, v, 1.0);
  std::vector<CooPart> parts;
  parts.push_back(std::move(part));
  return build_csr(rows, vertices, std::move(parts), Mirror::None, Duplicates::KeepFirst);
}

// Undirected: both directions of every edge.
inline CsrF64 undirected(int32_t n, const std::vector<std::pair<int32_t, int32_t>>& edges) {
  std::vector<std::pair<int32_t, int32_t>> both = edges;
  for (const auto& [u, v] : edges) both.emplace_back(v, u);
  return graph_of_edges(n, n, both);
}

inline CsrF64 path_graph(int32_t n) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int32_t v = 0; v + 1 < n; ++v) edges.emplace_back(v, v + 1);
  return undirected(n, edges);
}

// Vertex 0 joined to every other vertex, and a few leaves joined in a ring.
inline CsrF64 star_graph(int32_t n) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int32_t v = 1; v < n; ++v) edges.emplace_back(0, v);
  for (int32_t v = 1; v + 1 < std::min(n, 20); ++v) edges.emplace_back(v, v + 1);
  return undirected(n, edges);
}

// Directed: a tree out of 0 with cross edges, a cycle 60..69 that reaches into the tree but is
// not reached from it, vertices 70..79 without out-edges (past the last row), and 75 isolated.
inline CsrF64 directed_graph() {
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int32_t v = 1; v < 60; ++v) edges.emplace_back((v - 1) / 3, v);
  for (int32_t v = 5; v < 60; v += 7) edges.emplace_back(v, (v * 13) % 60);
  for (int32_t v = 60; v < 70; ++v) edges.emplace_back(v, v == 69 ? 60 : v + 1);
  edges.emplace_back(65, 3);
  edges.emplace_back(50, 72);
  edges.emplace_back(51, 74);
  return graph_of_edges(70, 80, edges);
}

struct BfsCase {
  std::string name;
  CsrF64 graph;
  std::vector<int32_t> sources;  // empty: ktune's seeded ones
};

inline std::vector<BfsCase> bfs_cases() {
  return {{"path", path_graph(100), {0}},
          {"star", star_graph(300), {7, 0}},
          {"rmat", generate_rmat(8, 8, 3), {}},
          {"directed", directed_graph(), {0, 62, 71}},
          {"isolated source", directed_graph(), {75}}};
}

}  // namespace ktune::testing_support
