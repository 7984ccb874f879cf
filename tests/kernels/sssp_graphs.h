#pragma once
// Small weighted graphs an SSSP must get right, for the SSSP tests: a path whose light edges
// beat one heavy shortcut and lose to another, a star, a directed graph with unreachable parts
// (tests/kernels/bfs_graphs.h's), R-MAT graphs; each with generated or file weights.
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kernels/sssp/sssp_family.h"
#include "kernels/sssp/sssp_weights.h"
#include "tests/kernels/bfs_graphs.h"
#include "workload/csr_builder.h"
#include "workload/generators.h"

namespace ktune::testing_support::sssp_case {

// Directed weighted edges u -> v (w), both ways when `both_ways`.
inline CsrF64 weighted(int32_t n, const std::vector<std::tuple<int32_t, int32_t, double>>& edges, bool both_ways) {
  CooPart part;
  for (const auto& [u, v, w] : edges) part.add(u, v, w);
  std::vector<CooPart> parts;
  parts.push_back(std::move(part));
  return build_csr(n, n, std::move(parts), both_ways ? Mirror::Symmetric : Mirror::None, Duplicates::KeepFirst);
}

// A path of 120 vertices with light edges (1 or 2), a shortcut 0-60 of weight 40 that beats the
// path (about 90), a shortcut 0-110 of weight 500 that loses to it, and a zero-weight edge.
inline CsrF64 heavy_light_path() {
  std::vector<std::tuple<int32_t, int32_t, double>> edges;
  for (int32_t v = 0; v + 1 < 120; ++v) edges.emplace_back(v, v + 1, v == 30 ? 0.0 : 1.0 + v % 2);
  edges.emplace_back(0, 60, 40.0);
  edges.emplace_back(0, 110, 500.0);
  return weighted(120, edges, true);
}

// Its weights replaced by fractions (for f32 only): 0.1 + (k * 0.37 mod 3) for edge k.
inline CsrF64 fractional(CsrF64 g) {
  for (size_t k = 0; k < g.values.size(); ++k) g.values[k] = 0.1 + std::fmod(static_cast<double>(k) * 0.37, 3.0);
  return g;
}

// The graph's own weights as the kernels would read them (int32, or float for f32).
inline SsspWeights file_weights(const CsrF64& g, Dtype dtype = Dtype::I32) {
  return sssp_weights(g, make_problem(SsspFamily(), {{"weights", "file"}}, Precision::uniform(dtype)));
}

struct SsspCase {
  std::string name;
  CsrF64 graph;
  std::vector<int32_t> sources;  // empty: ktune's seeded ones
  std::string weights;           // "generated" or "file"
  bool float_only = false;       // file weights that are not integers
};

inline std::vector<SsspCase> all() {
  return {{"heavy/light path, file weights", heavy_light_path(), {0, 70}, "file"},
          {"path, generated weights", heavy_light_path(), {5}, "generated"},
          {"star", star_graph(300), {7, 0}, "generated"},
          {"directed", directed_graph(), {0, 62, 71}, "generated"},
          {"rmat", generate_rmat(8, 8, 3), {}, "generated"},
          {"rmat, fractional file weights", fractional(generate_rmat(7, 4, 5)), {}, "file", true}};
}

}  // namespace ktune::testing_support::sssp_case
