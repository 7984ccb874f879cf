#pragma once
// A GEMM problem's shape: C[b] = A[b]·B[b] for b < batch, C is m x n. Every operand is stored
// row-major, batches one after another; the layout's two letters say whether A and B are
// stored as they are ("n") or transposed ("t"):
//   A "n": m x k (k contiguous)      A "t": k x m (m contiguous)
//   B "n": k x n (n contiguous)      B "t": n x k (k contiguous)
// so "nt" reads both operands along k, the layout of a linear layer's weights.
#include <cstdint>
#include <string>

#include "kernels/problem.h"

namespace ktune {

constexpr int64_t kGemmMaxExtent = int64_t{1} << 20;
constexpr int64_t kGemmMaxBatch = 65535;
// What a device holds at the least (A, B and C); beyond it a request is refused before anything
// is allocated. 64 GiB leaves an H100's 80 GB room for the workspace and the harness.
constexpr double kGemmMaxDeviceBytes = 64.0 * (uint64_t{1} << 30);

struct GemmShape {
  int64_t m = 1, n = 1, k = 1, batch = 1;
  bool a_transposed = false, b_transposed = false;

  static GemmShape of(const Problem& p);
  std::string layout() const { return std::string(a_transposed ? "t" : "n") + (b_transposed ? "t" : "n"); }

  // The storage index of A(b, row, kk) and B(b, kk, col).
  int64_t a_index(int64_t b, int64_t row, int64_t kk) const {
    return b * m * k + (a_transposed ? kk * m + row : row * k + kk);
  }
  int64_t b_index(int64_t b, int64_t kk, int64_t col) const {
    return b * k * n + (b_transposed ? col * k + kk : kk * n + col);
  }
  double a_elements() const { return static_cast<double>(batch) * m * k; }
  double b_elements() const { return static_cast<double>(batch) * k * n; }
  double c_elements() const { return static_cast<double>(batch) * m * n; }
  // Whether every row of A and B as stored (and so every batch) starts at a multiple of
  // `elements` elements: their contiguous extents are multiples of it.
  bool rows_aligned(int64_t elements) const {
    return (a_transposed ? m : k) % elements == 0 && (b_transposed ? k : n) % elements == 0;
  }
};

// Bytes of A and B in the input type and C in the output type.
double gemm_operand_bytes(const GemmShape& s, const Precision& p);

}  // namespace ktune
