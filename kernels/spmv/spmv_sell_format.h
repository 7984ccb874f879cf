#pragma once
// SELL-32: sliced ELLPACK with a slice height of one warp and σ = 1 (Kreutzer et al., "A unified
// sparse matrix data format for efficient general sparse matrix-vector multiplication on modern
// processors with wide SIMD units", SIAM SISC 2014). Rows keep their order; each slice of 32
// consecutive rows is padded to its longest row and stored column by column, so that the k-th
// entries of its 32 rows lie side by side. A warp that walks a slice, a lane a row, reads every
// line of the matrix whole and in one load, and reads no row pointers at all.
#include <cstdint>
#include <string>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

constexpr int64_t kSellSliceRows = 32;

// Padding grows with the spread of row lengths inside a slice: a power-law graph's hub rows
// would pad their slices to many times the matrix. Past this many entries in the matrix's rows
// (SellShape::in_rows) per nonzero the form is refused: its padding costs more traffic than the row pointers and uncoalesced
// loads it saves (4 bytes a row against 8 or 12 a padded entry).
constexpr double kSellMaxPaddedPerNonzero = 1.5;

// The size of the SELL-32 form, without building it: O(rows).
struct SellShape {
  int64_t slices = 0;
  int64_t stored = 0;   // entries including padding: 32 × the sum of the slices' widths
  int64_t in_rows = 0;  // those of the matrix's rows (not of the last slice's lanes past them)
};
SellShape sell_shape(const CsrF64& a);

// Why `a` is not taken in SELL-32 form (too much padding in its rows, or more entries than int32
// offsets reach), or empty when it is.
std::string sell_refusal(const CsrF64& a, const SellShape& shape);

struct SellMatrix {
  int32_t rows = 0;
  // slices + 1 offsets into col_idx/values; slice s holds (slice_ptr[s + 1] - slice_ptr[s]) / 32
  // columns of 32 entries, the k-th entry of its row l at slice_ptr[s] + 32 k + l.
  std::vector<int32_t> slice_ptr;
  std::vector<int32_t> col_idx;  // -1 marks padding (a row shorter than its slice, or no row)
  std::vector<double> values;    // 0 at padding
};

// The SELL-32 form of `a`; throws InputError with sell_refusal's reason when it is refused.
SellMatrix sell_matrix(const CsrF64& a);

// y = A·x in double precision over the SELL-32 form, as the kernel walks it: the CPU twin of
// spmv_sell.cu, tested against spmv_reference on the CSR form.
std::vector<double> sell_multiply(const SellMatrix& s, const std::vector<double>& x);

}  // namespace ktune
