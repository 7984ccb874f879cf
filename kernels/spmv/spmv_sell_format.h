#pragma once
// SELL-32: sliced ELLPACK with a slice height of one warp and σ = 1 (Kreutzer et al., "A unified
// sparse matrix data format for efficient general sparse matrix-vector multiplication on modern
// processors with wide SIMD units", SIAM SISC 2014). Rows keep their order; each slice of 32
// consecutive rows is padded to its longest row and stored column by column, so that the k-th
// entries of its 32 rows lie side by side. A warp that walks a slice, a lane a row, reads every
// line of the matrix whole and in one load, and reads no row pointers at all.
//
// Its column indices come in two widths: 32-bit columns, or 16-bit offsets from the entry's row
// (index compression, as in Willcock and Lumsdaine, "Accelerating sparse matrix computations via
// data compression", ICS 2006). Offsets take a fp32 matrix from 8 to 6 bytes an entry; they
// reach only matrices whose entries all lie within 32767 columns of their diagonal (stencils,
// banded matrices, meshes in a good order).
#include <cstdint>
#include <string>
#include <vector>

#include "workload/csr_matrix.h"

namespace ktune {

constexpr int64_t kSellSliceRows = 32;

// How the form stores column indices: as they are, or as 16-bit offsets from the row.
enum class SellIndex { Column, Offset16 };

// The largest offset a 16-bit index holds; the one below -kSellMaxOffset marks padding.
constexpr int32_t kSellMaxOffset = 32767;
constexpr int16_t kSellOffsetPadding = -32768;

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
  int64_t reach = 0;    // the largest |column - row| of an entry
};
SellShape sell_shape(const CsrF64& a);

// Why `a` is not taken in SELL-32 form with this index (too much padding in its rows, more
// entries than int32 offsets reach, or for 16-bit offsets, an entry too far from its row), or
// empty when it is.
std::string sell_refusal(const CsrF64& a, const SellShape& shape, SellIndex index);

struct SellMatrix {
  int32_t rows = 0;
  // slices + 1 offsets into col_idx/values; slice s holds (slice_ptr[s + 1] - slice_ptr[s]) / 32
  // columns of 32 entries, the k-th entry of its row l at slice_ptr[s] + 32 k + l.
  std::vector<int32_t> slice_ptr;
  std::vector<int32_t> col_idx;  // -1 marks padding (a row shorter than its slice, or no row)
  std::vector<double> values;    // 0 at padding
};

// The SELL-32 form of `a`; throws InputError with sell_refusal's reason (for 32-bit columns)
// when it is refused.
SellMatrix sell_matrix(const CsrF64& a);

// The form's column indices as 16-bit offsets from their rows, kSellOffsetPadding at padding;
// throws InputError when an entry lies more than kSellMaxOffset from its row.
std::vector<int16_t> sell_offsets(const SellMatrix& s);

// The column a 16-bit offset names in `row`, or -1 for padding: the kernel's decoding.
inline int32_t sell_offset_column(int16_t offset, int32_t row) {
  return offset == kSellOffsetPadding ? -1 : row + offset;
}

// y = A·x in double precision over the SELL-32 form, as the kernel walks it: the CPU twins of
// spmv_sell.cu with 32-bit columns and with 16-bit offsets, tested against spmv_reference on the
// CSR form.
std::vector<double> sell_multiply(const SellMatrix& s, const std::vector<double>& x);
std::vector<double> sell_multiply(const SellMatrix& s, const std::vector<int16_t>& offsets,
                                  const std::vector<double>& x);

}  // namespace ktune
