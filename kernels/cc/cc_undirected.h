#pragma once
// The undirected form connected components run on: weakly connected components of a directed
// graph are the components of the graph with every edge taken both ways.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// Square, of vertex_count(graph) rows, every edge in both directions, sorted, no duplicates
// (values dropped). A symmetric graph is returned as it is.
CsrF64 undirected_graph(const CsrF64& graph);

// Each undirected edge once, as u < v (self-loops dropped): the edge schedule's work list.
struct EdgePairs {
  std::vector<int32_t> u, v;
};
EdgePairs undirected_edge_pairs(const CsrF64& undirected);

}  // namespace ktune
