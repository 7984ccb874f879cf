#pragma once
// What an SSSP request asks: its sources (or ktune's seeded ones, kernels/graph/source_vertices.h)
// and where the edge weights come from.
//
// weights: "generated" (the default, for every graph: pattern graphs have no values, and a
// fixed weighting makes repeated tunes and other systems run on the same graph comparable) gives
// edge {u, v} the integer weight 1 + hash(min(u, v), max(u, v)) mod max_weight, the same both
// ways; "file" takes the workload's values, which must be finite and non-negative.
// Precision: i32 (the default) computes integer distances, checked exactly; it takes generated
// weights, or file weights that are all integers. f32 takes either, its distances checked
// within a bound (sssp_verify.h). Both run the same kernels on distance bits.
#include <cstdint>
#include <vector>

#include "kernels/problem.h"
#include "workload/csr_matrix.h"

namespace ktune {

ProblemSchema sssp_problem_schema();
bool sssp_file_weights(const Problem& p);
int64_t sssp_max_generated_weight(const Problem& p);
// InputError (4xx) for a source outside the graph, negative or non-finite file weights, file
// weights that are not integers under i32, or i32 distances that could overflow.
void check_sssp_problem(const CsrF64& graph, const Problem& p);

}  // namespace ktune
