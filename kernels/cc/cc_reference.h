#pragma once
// The CPU answer connected-components kernels are checked against, and the check itself.
#include <cstdint>
#include <string_view>
#include <vector>

#include "kernels/output_check.h"
#include "workload/csr_matrix.h"

namespace ktune {

// Union–find over every edge taken both ways: each vertex labelled with the smallest vertex
// of its (weakly connected) component. vertex_count(graph) labels.
std::vector<int32_t> cc_reference(const CsrF64& graph);

// Whether `output` (i32 labels) induces the partition of `reference`: labels are vertex ids
// (every schedule labels a component by one of its vertices), two vertices share a label
// exactly when they share a component. The label values themselves are free.
Verdict check_same_partition(std::string_view output, Dtype dtype, const std::vector<double>& reference);

}  // namespace ktune
