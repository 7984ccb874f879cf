#pragma once
// Small random CSR matrices for the kernel tests: row lengths 0..max_row_length (so empty rows
// occur), sorted distinct columns, values in [-1, 1).
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "workload/workload.h"

namespace ktune::testing_support {

inline CsrF64 random_csr(int32_t rows, int32_t cols, int32_t max_row_length, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> length(0, std::min(max_row_length, cols));
  std::uniform_int_distribution<int32_t> column(0, cols - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  CsrF64 a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.push_back(0);
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t wanted = length(rng);
    std::vector<int32_t> row;
    while (static_cast<int32_t>(row.size()) < wanted) {
      row.push_back(column(rng));
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    for (int32_t c : row) {
      a.col_idx.push_back(c);
      a.values.push_back(value(rng));
    }
    a.row_ptr.push_back(static_cast<int32_t>(a.col_idx.size()));
  }
  return a;
}

// Row r has lengths[r] nonzeros, in columns 0, 1, ... (value 1).
inline CsrF64 csr_with_row_lengths(const std::vector<int32_t>& lengths, int32_t cols) {
  CsrF64 a;
  a.rows = static_cast<int32_t>(lengths.size());
  a.cols = cols;
  a.row_ptr.push_back(0);
  for (int32_t length : lengths) {
    for (int32_t c = 0; c < length; ++c) {
      a.col_idx.push_back(c);
      a.values.push_back(1.0);
    }
    a.row_ptr.push_back(static_cast<int32_t>(a.col_idx.size()));
  }
  return a;
}

inline CsrF64 constant_rows_csr(int32_t rows, int32_t cols, int32_t length) {
  return csr_with_row_lengths(std::vector<int32_t>(rows, length), cols);
}

// Mostly short rows (a third empty), one row of `long_length` nonzeros spread over the columns
// in the middle: the skew that splits rows across warps or blocks.
inline CsrF64 matrix_with_long_row(int32_t rows, int32_t cols, int32_t long_length, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> short_length(0, 2);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  CsrF64 a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.push_back(0);
  for (int32_t r = 0; r < rows; ++r) {
    const int32_t length = r == rows / 2 ? long_length : short_length(rng) * 3;
    const int32_t stride = std::max(1, cols / std::max(length, 1));
    for (int32_t i = 0; i < length; ++i) {
      a.col_idx.push_back((i * stride + r) % cols);
      a.values.push_back(value(rng));
    }
    std::sort(a.col_idx.end() - length, a.col_idx.end());
    a.row_ptr.push_back(static_cast<int32_t>(a.col_idx.size()));
  }
  return a;
}

// A sparse-matrix workload of `m`.
inline Workload workload_of(CsrF64 m) { return Workload{WorkloadKind::SparseMatrix, std::move(m)}; }

}  // namespace ktune::testing_support
