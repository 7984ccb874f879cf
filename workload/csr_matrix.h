#pragma once
// Compressed sparse row matrix: the one in-memory form every sparse workload takes.
#include <cstdint>
#include <vector>

namespace ktune {

// Element types of values. F16 and BF16 are storage types of dense (tensor) families; the
// sparse families take F32 and F64; I32 is the graph families' integer answers (BFS depths,
// component labels). TF32 is an input stored as f32 that the tensor cores read with a 10-bit
// mantissa (the GEMM family's "tf32", cuBLAS's CUBLAS_COMPUTE_32F_FAST_TF32).
enum class Dtype { F16, BF16, F32, F64, I32, TF32 };

template <typename Value>
struct CsrMatrix {
  int32_t rows = 0;
  int32_t cols = 0;
  std::vector<int32_t> row_ptr;  // rows + 1 entries, row_ptr[0] == 0
  std::vector<int32_t> col_idx;  // sorted within each row, no duplicates
  std::vector<Value> values;

  int64_t nnz() const { return static_cast<int64_t>(col_idx.size()); }
  int32_t row_length(int32_t r) const { return row_ptr[r + 1] - row_ptr[r]; }

  template <typename Other>
  CsrMatrix<Other> with_values() const {
    CsrMatrix<Other> out{rows, cols, row_ptr, col_idx, {}};
    out.values.assign(values.begin(), values.end());
    return out;
  }
};

using CsrF64 = CsrMatrix<double>;
using CsrF32 = CsrMatrix<float>;

}  // namespace ktune
