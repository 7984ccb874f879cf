#pragma once
// Coordinate entries to CSR by counting sort: one pass to count per row, one to scatter,
// then each row sorted and merged on its own. Parsers and generators share it.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// Entries in input order; a reader or generator thread fills one part.
struct CooPart {
  std::vector<int32_t> row, col;
  std::vector<double> value;

  void reserve(size_t n) {
    row.reserve(n);
    col.reserve(n);
    value.reserve(n);
  }
  void add(int32_t r, int32_t c, double v) {
    row.push_back(r);
    col.push_back(c);
    value.push_back(v);
  }
  size_t size() const { return row.size(); }
};

// Which entries a stored one stands for besides itself: none, its transpose, or its
// negated transpose (off-diagonal entries only).
enum class Mirror { None, Symmetric, SkewSymmetric };

// What repeated (row, col) entries become: their sum (Matrix Market) or the first one in
// input order (graph edges, where a repeated edge is the same edge).
enum class Duplicates { Sum, KeepFirst };

// Indices must be in range. Throws LimitError when the result could exceed 2^31-1 entries.
// Parts are consumed (their memory is released as they are scattered).
CsrF64 build_csr(int32_t rows, int32_t cols, std::vector<CooPart> parts, Mirror mirror,
                 Duplicates duplicates);

// Upper bound of stored entries after mirroring `stored` ones; the callers' size checks
// use it before anything is allocated.
inline int64_t mirrored_entry_bound(int64_t stored, Mirror mirror) {
  return mirror == Mirror::None ? stored : 2 * stored;
}

}  // namespace ktune
