#pragma once
// The hot columns of a matrix: those with the most nonzeros, whose entries of x are gathered
// again and again. On a power-law graph a few thousand columns hold a third or more of the
// nonzeros (R-MAT 22: the top 16384 hold 42%), but the graph's labels scatter them over all of
// x, so one line of x brings one hot entry into L1 and the rest of the line is cold. The
// adaptive_hot schedule gathers the hot entries into one dense array (x_hot, a small launch
// before the SpMV), which then stays in L1, and its matrix names a hot column by its slot in
// that array. Seed 002 (Yang et al., VLDB 2011) gets the same reuse by sorting the columns and
// tiling x; this keeps the columns where they are and so needs no permutation of x or y.
#include <cstdint>
#include <string>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

// At most this many columns are hot: 128 KiB of fp32 x, 256 KiB of fp64, against 256 KiB of
// L1 and shared memory per SM on the H100/H200. Measured on the H200 (bench/NOTES.md), R-MAT 22
// runs within 2% of its best at this count in both precisions.
constexpr int64_t kHotColumns = 32768;

struct HotColumns {
  // Slot s holds x[columns[s]]; slots in order of decreasing column length (ties by column).
  std::vector<int32_t> columns;
  // The matrix's column indices with every hot one stored as ~slot (negative).
  std::vector<int32_t> col_idx;
};

// The longest columns of `a`, at most max_columns of them, among those with two or more
// nonzeros (a column used once is read once wherever its x lies).
HotColumns hot_columns(const CsrF64& a, int64_t max_columns);

// How many columns hot_columns(a, max_columns) keeps, without sorting them.
int64_t hot_column_count(const CsrF64& a, int64_t max_columns);

// Why `a` has no hot columns (no column holds two nonzeros), or empty when it has some.
std::string hot_columns_refusal(const CsrF64& a);

}  // namespace ktune
