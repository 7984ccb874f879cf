#pragma once
// What a BFS request asks: its sources (or ktune's seeded ones) and whether parents are output.
#include <cstdint>
#include <vector>

#include "kernels/graph/source_vertices.h"
#include "kernels/problem.h"
#include "workload/csr_matrix.h"

namespace ktune {

// At most this many sources a request (kernels/graph/source_vertices.h).
constexpr int kMaxBfsSources = kMaxTraversalSources;

ProblemSchema bfs_problem_schema();
bool bfs_outputs_parents(const Problem& p);
// The problem's sources, or seeded_sources' when it names none (the same every tune of a graph).
std::vector<int32_t> bfs_sources(const CsrF64& graph, const Problem& p);
// InputError naming the vertex count for a source outside the graph, or when the graph has no
// edge to pick a source by.
void check_bfs_problem(const CsrF64& graph, const Problem& p);

}  // namespace ktune
