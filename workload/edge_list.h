#pragma once
// Edge lists ("u v" or "u v weight" per line, 0-based vertex ids) to a square adjacency CSR.
#include <string_view>

#include "workload/csr_matrix.h"
#include "workload/matrix_market.h"

namespace ktune {

// Lines starting with '#' or '%' are comments. The vertex count is the largest id + 1;
// weights default to 1.0; a repeated edge is one edge (its first weight). `symmetrize`
// adds v -> u for every u -> v. Malformed lines throw InputError naming the line.
CsrF64 parse_edge_list(std::string_view text, const ReadLimits& limits, bool symmetrize);

}  // namespace ktune
