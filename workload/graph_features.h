#pragma once
// What decides a traversal's winner beyond the degree distribution (the signature's row-length
// statistics): whether edges come back (a pull needs in-edges, which an undirected graph has
// for free), and how deep and how wide breadth-first search runs on it (a road network's
// thousands of thin levels against a social network's few wide ones), measured by a few BFS
// from seeded sources.
#include <cstdint>
#include <nlohmann/json.hpp>

#include "workload/csr_matrix.h"

namespace ktune {

struct GraphFeatures {
  // Measured on the adjacency, not declared by the file: an edge list that lists both
  // directions of every edge traverses as an undirected graph does. On graphs of more than
  // 2^20 edges, measured on an evenly spread sample of them.
  double reciprocity = 1;  // share of edges u→v (u ≠ v) whose reverse v→u is present
  bool directed = false;   // reciprocity below 1
  // Over the sampled BFS (seeded sources, each followed by one from the farthest vertex it
  // reached, as long as the edges they scan fit a budget; at least one):
  int64_t diameter_estimate = 0;  // the deepest level reached: a lower bound of the diameter
  double reach = 0;               // mean share of the vertices a BFS reaches
  double frontier_peak = 0;       // the widest level over the vertex count
  int64_t traversals = 0;         // BFS run

  bool operator==(const GraphFeatures& other) const;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GraphFeatures, reciprocity, directed, diameter_estimate, reach, frontier_peak,
                                   traversals)

GraphFeatures compute_graph_features(const CsrF64& graph);

}  // namespace ktune
