#pragma once
// The traversal sources ktune picks itself: when a BFS request names none, and for the
// signature's sampled traversals. Drawn from a fixed seed, so that repeated tunes of one graph
// measure the same work.
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// Up to `count` distinct vertices that have out-edges, in the order drawn (fewer when the
// graph has fewer such vertices; none for a graph without edges).
std::vector<int32_t> seeded_sources(const CsrF64& graph, int count);

}  // namespace ktune
