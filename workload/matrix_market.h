#pragma once
// Matrix Market coordinate files (plain or gzip) to CSR, and CSR back to Matrix Market.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "workload/csr_matrix.h"
#include "workload/read_limits.h"
#include "workload/text_source.h"

namespace ktune {

// Coordinate format; real, integer or pattern (values 1.0) fields; general, symmetric or
// skew-symmetric (the other triangle is mirrored, negated for skew). Duplicates are summed.
// Malformed input throws InputError naming the line and the problem. The text is read a
// piece at a time: a size line beyond `limits`, or text that goes on past what its declared
// entries need, is refused before the rest is read.
CsrF64 parse_matrix_market(TextSource& text, const ReadLimits& limits);
CsrF64 parse_matrix_market(std::string_view text, const ReadLimits& limits);  // plain or gzip bytes

// The file at `path`, plain or gzip (recognised by its magic bytes, not its name).
CsrF64 read_matrix_market_file(const std::string& path, const ReadLimits& limits);

// "real general coordinate", values printed so that they read back bit for bit.
void write_matrix_market(const CsrF64& matrix, std::ostream& out);

}  // namespace ktune
