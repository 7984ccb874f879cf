#pragma once
// Matrix Market coordinate files (plain or gzip) to CSR, and CSR back to Matrix Market.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "workload/csr_matrix.h"

namespace ktune {

// What a client may make the daemon read; checked against declared sizes before anything
// is allocated. Beyond them a reader throws LimitError.
struct ReadLimits {
  int64_t max_rows = int64_t{1} << 28;
  int64_t max_cols = int64_t{1} << 28;
  int64_t max_entries = 400'000'000;   // stored entries, before symmetric mirroring
  size_t max_bytes = size_t{8} << 30;  // text, after decompression
};

// Coordinate format; real, integer or pattern (values 1.0) fields; general, symmetric or
// skew-symmetric (the other triangle is mirrored, negated for skew). Duplicates are summed.
// Malformed input throws InputError naming the line and the problem.
CsrF64 parse_matrix_market(std::string_view text, const ReadLimits& limits);

// The file at `path`, plain or gzip (recognised by its magic bytes, not its name).
CsrF64 read_matrix_market_file(const std::string& path, const ReadLimits& limits);

// "real general coordinate", values printed so that they read back bit for bit.
void write_matrix_market(const CsrF64& matrix, std::ostream& out);

}  // namespace ktune
