#pragma once
// A BFS's levels from one source, followed on the host, as the first model needs them to
// charge a configuration level by level: how wide each frontier is and how many edges it
// pushes, how many edges are left unvisited (what Beamer's switch compares), and what a pull at
// that level would scan, with and without stopping at a vertex's first parent. One breadth-first
// search and one pass over the in-edges: O(edges) for every level at once.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

struct BfsLevel {
  int64_t frontier = 0;        // vertices at this depth
  int64_t frontier_edges = 0;  // their out-edges: what pushing this level scans
  // A pull that expands this level: the in-edges of every vertex not yet reached, scanned
  // whole (the schedules that share out edges never stop early) or up to a vertex's first
  // in-neighbour in this frontier (a thread, warp or block per vertex).
  int64_t pull_edges_whole = 0;
  int64_t pull_edges_first = 0;
  // The longest single rows each way: the frontier's largest out-degree (what one thread, warp
  // or block pushing it waits on) and the largest in-degree a pull at this level may scan.
  int64_t longest_push = 0;
  int64_t longest_pull = 0;
};

// Level 0 is the source. In-edges as a CSR over every vertex (kernels/graph/graph_inputs.h).
std::vector<BfsLevel> follow_bfs_levels(const CsrF64& graph, const int32_t* in_row_ptr, const int32_t* in_col_idx,
                                        int32_t source);

}  // namespace ktune
