#pragma once
// The PageRank parameter space and one configuration of it in typed form.
#include <cstdint>

#include "kernels/parameter_space.h"

namespace ktune {

// In the order of the "direction" choices.
//  - pull: every vertex gathers its in-neighbours' contributions (rank / out-degree) over the
//    transposed graph and writes only its own rank: no atomics. The gather is SpMV's row
//    schedules on the in-edge CSR with implicit ones: `lanes` = 1 is spmv_row (a thread per
//    vertex), 2..32 spmv_subwarp (a sub-warp of lanes per vertex, shuffles combining them).
//  - push: every vertex scatters its contribution along its out-edges with atomicAdd into
//    the next ranks, `lanes` threads per vertex the same way; no transpose is needed.
//  - pull_edges: a pull split by in-edges instead of vertices (a thread per edge, `lanes` 1),
//    the warps summing by head: even work on skewed in-degrees, for an array of every
//    in-edge's head.
enum class PagerankDirection { Pull, Push, PullEdges };

// direction, block (threads per block), lanes (threads per vertex in the edge pass), items
// (vertices per thread group: coarsening).
ParameterSpace pagerank_space();

struct PagerankConfig {
  PagerankDirection direction = PagerankDirection::Pull;
  int32_t block = 256;
  int32_t lanes = 1;
  int32_t items = 1;

  // Validates against pagerank_space(); throws InputError naming the refused parameter.
  static PagerankConfig from(const Config& config);

  // Vertices (edges for pull_edges) one block of the edge pass covers.
  int64_t items_per_block() const { return int64_t{block} / lanes * items; }
  // Whether the pass reads the in-edges (the transpose).
  bool pulls() const { return direction != PagerankDirection::Push; }
};

}  // namespace ktune
