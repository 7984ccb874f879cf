#pragma once
// Breadth-first search over a graph's out-edges on the host: the answer BFS kernels are
// checked against, and the signature's sampled traversals. A graph is a CSR adjacency: row u
// lists the heads of u's out-edges. Its vertices number max(rows, cols); those past the last
// row have no out-edges.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

int32_t vertex_count(const CsrF64& graph);
// Out-degree of v, 0 past the last row.
int32_t out_degree(const CsrF64& graph, int32_t v);

struct BreadthFirst {
  std::vector<int32_t> depth;      // -1: unreached
  // The vertex of the previous level that reached it first in queue order; the source is
  // its own parent; -1: unreached.
  std::vector<int32_t> parent;
  std::vector<int64_t> level_sizes;  // vertices at each depth, from the source's 1
  int64_t edges_scanned = 0;         // out-edges of the reached vertices
};

// Throws InputError when the source is not a vertex of the graph.
BreadthFirst breadth_first(const CsrF64& graph, int32_t source);

}  // namespace ktune
