#pragma once
// The edge weights an SSSP runs on, as the kernels read them and the reference computes with:
// one per CSR nonzero (sssp_problem.h says where they come from).
#include <cstdint>
#include <vector>

#include "kernels/problem.h"
#include "workload/csr_matrix.h"

namespace ktune {

struct SsspWeights {
  std::vector<double> values;  // in the problem's precision's values (f32 weights rounded to float)
  // Over the edges (1s for a graph without any); min is the smallest positive weight (0 when
  // none is): adding a zero weight rounds nothing, so it is what bounds float error.
  double min = 0, max = 0, mean = 1;
};

// Generated weights' formula: 1 + a hash of the unordered pair {u, v} mod max_weight.
int32_t generated_weight(int32_t u, int32_t v, int64_t max_weight);

SsspWeights sssp_weights(const CsrF64& graph, const Problem& p);

}  // namespace ktune
