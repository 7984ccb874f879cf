#include "kernels/pagerank/pagerank_reference.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "workload/breadth_first.h"

namespace ktune {

PagerankRun pagerank_reference(const CsrF64& graph, const PagerankProblem& problem) {
  const int32_t n = vertex_count(graph);
  PagerankRun run;
  if (n == 0) return run;
  const double d = problem.damping;
  std::vector<double> x(static_cast<size_t>(n), 1.0 / n), y(static_cast<size_t>(n));
  while (run.iterations < problem.max_iterations) {
    ++run.iterations;
    double dangling = 0;
    std::fill(y.begin(), y.end(), 0.0);
    for (int32_t u = 0; u < n; ++u) {
      const int32_t degree = out_degree(graph, u);
      if (degree == 0) {
        dangling += x[static_cast<size_t>(u)];
        continue;
      }
      const double share = x[static_cast<size_t>(u)] / degree;
      for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k) y[static_cast<size_t>(graph.col_idx[k])] += share;
    }
    double change = 0;
    for (size_t v = 0; v < y.size(); ++v) {
      y[v] = (1 - d) / n + d * (y[v] + dangling / n);
      change += std::fabs(y[v] - x[v]);
    }
    x.swap(y);
    if (change < problem.tolerance) break;
  }
  run.ranks = std::move(x);
  return run;
}

double pagerank_l1_bound(const PagerankProblem& problem) {
  return std::max(1e-4, 2 * problem.damping / (1 - problem.damping) * problem.tolerance);
}

Verdict check_ranks(std::string_view output, Dtype dtype, const std::vector<double>& reference,
                    const PagerankProblem& problem) {
  Verdict v;
  const size_t n = reference.size();
  if (v.message = output_size_problem(output, dtype, n); !v.message.empty()) return v;
  if (dtype == Dtype::I32) {
    v.message = "ranks are f32 or f64, not i32";
    return v;
  }
  double l1 = 0, worst = -1;
  size_t worst_at = 0;
  for (size_t i = 0; i < n; ++i) {
    const double got = output_element(output, dtype, i);
    const double error = std::isfinite(got) ? std::fabs(got - reference[i]) : INFINITY;
    v.bad_elements += !std::isfinite(got);
    l1 += error;
    if (error > worst) {
      worst = error;
      worst_at = i;
    }
  }
  const double bound = pagerank_l1_bound(problem);
  v.max_rel_error = l1;
  v.ok = l1 <= bound;
  if (!v.ok) {
    std::ostringstream out;
    out.precision(6);
    out << "the ranks differ from the reference by " << l1 << " in L1, over the bound " << bound
        << "; the most at vertex " << worst_at << ": " << output_element(output, dtype, worst_at) << ", expected "
        << reference[worst_at];
    if (v.bad_elements > 0)
      out << " (" << v.bad_elements << " ranks not finite: outputs are poisoned with NaN first, so unwritten)";
    v.message = out.str();
    v.bad_elements = std::max<int64_t>(v.bad_elements, 1);
  }
  return v;
}

}  // namespace ktune
