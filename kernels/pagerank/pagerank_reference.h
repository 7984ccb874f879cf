#pragma once
// The CPU answer PageRank kernels are checked against, and the check itself.
#include <cstdint>
#include <string_view>
#include <vector>

#include "kernels/output_check.h"
#include "kernels/pagerank/pagerank_problem.h"
#include "workload/csr_matrix.h"

namespace ktune {

// Power iteration in double, as the device plans run it: ranks start at 1/n; each iteration
//   y_v = (1 - d) / n + d (sum over edges u -> v of x_u / outdeg(u) + dangling / n),
// dangling the rank of the vertices without out-edges (spread uniformly); it stops after the
// iteration whose L1 change sum |y - x| is below the tolerance, or after max_iterations.
// Edge values are ignored (an edge is an edge). vertex_count(graph) ranks, and how many
// iterations it took: the device's loop runs about as many (the first model charges them).
struct PagerankRun {
  std::vector<double> ranks;
  int32_t iterations = 0;
};
PagerankRun pagerank_reference(const CsrF64& graph, const PagerankProblem& problem);

// How far in L1 a computed rank vector may be from the reference: 1e-4, or, for a loose
// tolerance, what two runs stopping one iteration apart may differ by (each is within
// d / (1 - d) times its last change of the fixed point).
double pagerank_l1_bound(const PagerankProblem& problem);

// Every rank finite and sum |got - reference| within pagerank_l1_bound.
Verdict check_ranks(std::string_view output, Dtype dtype, const std::vector<double>& reference,
                    const PagerankProblem& problem);

}  // namespace ktune
