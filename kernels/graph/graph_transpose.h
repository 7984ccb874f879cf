#pragma once
// A graph's in-edges: the transpose of its adjacency, what a pull (a vertex gathering from its
// in-neighbours) reads. An undirected graph is its own transpose and needs no second copy.
#include <cstdint>

#include "workload/csr_matrix.h"

namespace ktune {

// Writes the in-edge CSR: row v lists the tails u of the edges u→v, sorted. `row_ptr` takes
// vertex_count(graph) + 1 entries, `col_idx` graph.nnz(). No values: the traversals that pull
// read none.
void transpose_graph_into(const CsrF64& graph, int32_t* row_ptr, int32_t* col_idx);
// The same as a square CSR of vertex_count(graph) rows, without values.
CsrF64 transpose_graph(const CsrF64& graph);

// Whether every edge u→v has its reverse v→u (rows == cols): the graph is its own transpose.
bool is_symmetric_graph(const CsrF64& graph);

}  // namespace ktune
