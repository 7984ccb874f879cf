#include "kernels/graph/source_vertices.h"

#include <limits>
#include <string>

#include "workload/breadth_first.h"
#include "workload/graph_sources.h"
#include "workload/input_error.h"

namespace ktune {

ProblemField sources_field(const std::string& traversal) {
  return ProblemField::integer_list("sources", 0, std::numeric_limits<int32_t>::max(), kMaxTraversalSources,
                                    nlohmann::json::array(),
                                    "source vertices, one " + traversal + " each, run in turn; [] (the default): " +
                                        std::to_string(kSeededSources) +
                                        " vertices with out-edges, drawn from a fixed seed");
}

std::vector<int32_t> problem_sources(const CsrF64& graph, const Problem& p) {
  const std::vector<int32_t> named = p.params.at("sources").get<std::vector<int32_t>>();
  return named.empty() ? seeded_sources(graph, kSeededSources) : named;
}

void check_sources(const CsrF64& graph, const Problem& p) {
  const int32_t n = vertex_count(graph);
  for (int32_t source : p.params.at("sources").get<std::vector<int32_t>>())
    if (source >= n)
      throw InputError("problem.sources names vertex " + std::to_string(source) + ", but the graph has " +
                       std::to_string(n) + " vertices" +
                       (n > 0 ? " (0.." + std::to_string(n - 1) + ")" : std::string()));
  if (problem_sources(graph, p).empty())
    throw InputError("the graph has no edges, so ktune picks no source for it: name problem.sources");
}

}  // namespace ktune
