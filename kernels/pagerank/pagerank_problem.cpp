#include "kernels/pagerank/pagerank_problem.h"

namespace ktune {

namespace {
// The bound keeps a plan's loop, which the worker times whole, to a few milliseconds an
// iteration times this on the largest graphs.
constexpr int64_t kMaxIterations = 1000;
}  // namespace

ProblemSchema pagerank_schema() {
  return {{ProblemField::number("damping", 0.001, 0.999, 0.85,
                                "the probability of following an out-edge rather than jumping to a random vertex"),
           ProblemField::number("tolerance", 1e-12, 1.0, 1e-6,
                                "iterations stop once the ranks change by less than this in L1"),
           ProblemField::integer("max_iterations", 1, kMaxIterations, 100,
                                 "iterations stop here even if the tolerance is not met")}};
}

PagerankProblem PagerankProblem::of(const Problem& p) {
  return {p.number("damping"), p.number("tolerance"), static_cast<int32_t>(p.integer("max_iterations"))};
}

}  // namespace ktune
