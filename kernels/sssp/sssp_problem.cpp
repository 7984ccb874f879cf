#include "kernels/sssp/sssp_problem.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kernels/graph/source_vertices.h"
#include "workload/breadth_first.h"
#include "workload/input_error.h"

namespace ktune {

ProblemSchema sssp_problem_schema() {
  return {{sources_field("SSSP"),
           ProblemField::choice("weights", {"generated", "file"}, "generated",
                                "edge weights: \"generated\" (integers 1..max_weight from a hash of the edge, the "
                                "same both ways) or \"file\" (the graph's values: finite, non-negative)"),
           ProblemField::integer("max_weight", 1, 1 << 20, 64, "the largest generated weight")}};
}

bool sssp_file_weights(const Problem& p) { return p.params.at("weights").get<std::string>() == "file"; }

int64_t sssp_max_generated_weight(const Problem& p) { return p.integer("max_weight"); }

void check_sssp_problem(const CsrF64& graph, const Problem& p) {
  check_sources(graph, p);
  const bool integers = p.precision.output == Dtype::I32;
  double largest = static_cast<double>(sssp_max_generated_weight(p));
  if (sssp_file_weights(p)) {
    largest = graph.values.empty() ? 1.0 : 0.0;
    for (size_t e = 0; e < graph.values.size(); ++e) {
      const double w = graph.values[e];
      if (!std::isfinite(w) || w < 0)
        throw InputError("problem.weights is \"file\", but edge " + std::to_string(e) + " has weight " +
                         std::to_string(w) + ": SSSP needs finite, non-negative weights");
      if (integers && w != std::floor(w))
        throw InputError("problem.weights is \"file\" with dtype i32, but edge " + std::to_string(e) +
                         " has the non-integer weight " + std::to_string(w) + ": ask for dtype f32");
      largest = std::max(largest, w);
    }
  }
  // A shortest path has at most n - 1 edges, and an offer one more: it must fit the type.
  const double longest = largest * vertex_count(graph);
  const double limit = integers ? std::numeric_limits<int32_t>::max() - 1.0 : std::numeric_limits<float>::max();
  if (longest >= limit)
    throw InputError("SSSP distances on this graph could reach " + std::to_string(longest) + ", beyond dtype " +
                     (integers ? "i32" : "f32") + (integers ? ": lower problem.max_weight or ask for dtype f32" : ""));
}

}  // namespace ktune
