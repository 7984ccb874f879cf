#pragma once
// A graph's in-edges: the transpose of its adjacency, what a pull (a vertex gathering from its
// in-neighbours) reads. An undirected graph is its own transpose and needs no second copy.
#include "workload/csr_matrix.h"

namespace ktune {

// Row v lists the tails u of the edges u→v, sorted, with their values; square, of
// vertex_count(graph) rows.
CsrF64 transpose_graph(const CsrF64& graph);

// Whether every edge u→v has its reverse v→u (rows == cols): the graph is its own transpose.
bool is_symmetric_graph(const CsrF64& graph);

}  // namespace ktune
