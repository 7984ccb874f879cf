#pragma once
// Generator workloads as clients write them (docs/api.md, "Workloads"), e.g.
// {"generator": "rmat", "scale": 16, "edge_factor": 16, "seed": 1}.
#include <nlohmann/json.hpp>
#include <string>

#include "workload/csr_matrix.h"
#include "workload/read_limits.h"

namespace ktune {

// Validates every field (a missing, mistyped, out-of-range or unknown one is an InputError)
// and the size of the result against `limits` (LimitError, decided before generating).
// Without values the matrix has none (a graph traversal reads only its edges).
CsrF64 generate_from_spec(const nlohmann::json& spec, const ReadLimits& limits, bool with_values = true);

// The same checks without generating: for refusing a request before it is queued.
void check_spec(const nlohmann::json& spec, const ReadLimits& limits);

// A short canonical text of a valid spec, the same for equal specs whatever their key
// order, e.g. "rmat(scale=16,edge_factor=16,seed=1)"; throws InputError like the above.
std::string describe_spec(const nlohmann::json& spec);

}  // namespace ktune
