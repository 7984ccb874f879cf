#pragma once
// The CPU reference: Dijkstra's algorithm from one source, in double precision, on the same
// weights the kernels read (f32 weights already rounded to float).
#include <cstdint>
#include <vector>

#include "kernels/sssp/sssp_weights.h"
#include "workload/csr_matrix.h"

namespace ktune {

// Distances from `source` to each of vertex_count(graph) vertices; `unreached` for those no
// path reaches (the kernels' unreached value, so that an exact check compares them too).
std::vector<double> dijkstra(const CsrF64& graph, const SsspWeights& weights, int32_t source,
                             double unreached);

}  // namespace ktune
