#pragma once
// What a PageRank request asks beyond the graph: the damping factor, the tolerance on the L1
// change of the ranks between iterations, and the most iterations to run.
#include <cstdint>

#include "kernels/problem.h"

namespace ktune {

ProblemSchema pagerank_schema();

struct PagerankProblem {
  double damping = 0.85;
  double tolerance = 1e-6;
  int32_t max_iterations = 100;

  static PagerankProblem of(const Problem& p);  // p validated by pagerank_schema()
};

}  // namespace ktune
