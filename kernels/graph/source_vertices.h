#pragma once
// The "sources" problem field of the traversal families (BFS, SSSP): the vertices a request
// starts from, one traversal each run in turn, or ktune's seeded ones when it names none.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/problem.h"
#include "workload/csr_matrix.h"

namespace ktune {

// At most this many sources a request; ktune picks kSeededSources when it names none.
constexpr int kMaxTraversalSources = 64;
constexpr int kSeededSources = 4;

// The field, named "sources", for `traversal` ("BFS", "SSSP") in its description.
ProblemField sources_field(const std::string& traversal);
// The problem's sources, or seeded_sources' when it names none (the same every tune of a graph).
std::vector<int32_t> problem_sources(const CsrF64& graph, const Problem& p);
// InputError naming the vertex count for a source outside the graph, or when the graph has no
// edge to pick a source by.
void check_sources(const CsrF64& graph, const Problem& p);

}  // namespace ktune
