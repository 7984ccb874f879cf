#pragma once
// The graph as the traversal kernels (BFS, SSSP) read it: its out-edges, with a row pointer
// over every vertex (n + 1 entries even when the CSR has fewer rows: vertices past its last row
// have no out-edges), and, for a pull, its in-edges.
#include <vector>

#include "kernels/launch_plan.h"
#include "workload/csr_matrix.h"

namespace ktune {

// "row_ptr" and "col_idx" (at least one entry, so that no buffer is empty).
std::vector<DeviceBuffer> graph_out_edges(const CsrF64& graph);
// "in_row_ptr" and "in_col_idx": the transpose (kernels/graph), or, for a graph that is its own
// transpose (undirected), the out-edges' own bytes under these names: no second host copy.
std::vector<DeviceBuffer> graph_in_edges(const CsrF64& graph, const std::vector<DeviceBuffer>& out_edges);

}  // namespace ktune
