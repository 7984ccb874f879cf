#include "kernels/bfs/bfs_problem.h"

#include "kernels/graph/source_vertices.h"

namespace ktune {

ProblemSchema bfs_problem_schema() {
  return {{sources_field("BFS"), ProblemField::boolean("parents", false, "also output each reached vertex's parent")}};
}

bool bfs_outputs_parents(const Problem& p) { return p.params.at("parents").get<bool>(); }

std::vector<int32_t> bfs_sources(const CsrF64& graph, const Problem& p) { return problem_sources(graph, p); }

void check_bfs_problem(const CsrF64& graph, const Problem& p) { check_sources(graph, p); }

}  // namespace ktune
