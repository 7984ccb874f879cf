#pragma once
// Edge lists ("u v" or "u v weight" per line, 0-based vertex ids) to a square adjacency CSR.
#include <string_view>

#include "workload/csr_matrix.h"
#include "workload/read_limits.h"
#include "workload/text_source.h"

namespace ktune {

// Lines starting with '#' or '%' are comments. The vertex count is the largest id + 1;
// weights default to 1.0; a repeated edge is one edge (its first weight). `symmetrize`
// adds v -> u for every u -> v. Malformed lines throw InputError naming the line. The text is
// read a piece at a time and refused once it holds more bytes than its edges need.
CsrF64 parse_edge_list(TextSource& text, const ReadLimits& limits, bool symmetrize);
CsrF64 parse_edge_list(std::string_view text, const ReadLimits& limits, bool symmetrize);  // plain or gzip bytes

}  // namespace ktune
