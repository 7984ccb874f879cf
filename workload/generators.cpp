#include "workload/generators.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "workload/generator_checks.h"
#include "workload/parallel.h"
#include "workload/random.h"

namespace ktune {
namespace {

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kRowsPerThread = 1 << 16;

// Builds a matrix range of rows by range of rows on all cores: row_length(r) sizes row r,
// then fill_rows(first, last, m) writes the columns and values of rows [first, last).
template <typename RowLength, typename FillRows>
CsrF64 build_by_rows(int32_t rows, int32_t cols, RowLength row_length, FillRows fill_rows) {
  CsrF64 m;
  m.rows = rows;
  m.cols = cols;
  m.row_ptr.assign(static_cast<size_t>(rows) + 1, 0);
  const int threads = worker_count(rows, kRowsPerThread);
  auto row_range = [&](int t) {
    return std::make_pair(static_cast<int32_t>(part_begin(rows, threads, t)),
                          static_cast<int32_t>(part_begin(rows, threads, t + 1)));
  };
  parallel_for(threads, threads, [&](int t) {
    const auto [first, last] = row_range(t);
    for (int32_t r = first; r < last; ++r) m.row_ptr[r + 1] = row_length(r);
  });
  std::partial_sum(m.row_ptr.begin(), m.row_ptr.end(), m.row_ptr.begin());
  m.col_idx.resize(static_cast<size_t>(m.row_ptr[rows]));
  m.values.resize(m.col_idx.size());
  parallel_for(threads, threads, [&](int t) {
    const auto [first, last] = row_range(t);
    fill_rows(first, last, m);
  });
  return m;
}

// The 2*dims+1 point Laplacian on an n^dims grid (dims <= 3), rows in lexicographic grid order.
CsrF64 laplacian(int dims, int32_t n) {
  require(n >= 1, "the stencil grid size n must be at least 1, got " + std::to_string(n));
  int64_t rows = 1;
  for (int d = 0; d < dims; ++d) rows = std::min(rows * n, kInt32Max + 1);
  const int32_t size = fitting_int32(rows, "the stencil's row count");
  // Every axis loses one neighbour at each of its two faces: 2 * n^(dims-1) entries.
  fitting_int32((2 * dims + 1) * rows - 2 * dims * (rows / n), "the stencil's entry count");
  std::vector<int32_t> stride(dims);  // stride[0] = 1 (the fastest axis)
  for (int d = 0; d < dims; ++d) stride[d] = d == 0 ? 1 : stride[d - 1] * n;
  // Whether row r has a neighbour below / above it along each axis.
  struct Neighbours {
    bool below[3], above[3];
  };
  auto neighbours = [&](int32_t r) {
    Neighbours has{};
    for (int d = 0; d < dims; ++d) {
      const int32_t coordinate = (r / stride[d]) % n;
      has.below[d] = coordinate > 0;
      has.above[d] = coordinate < n - 1;
    }
    return has;
  };
  auto row_length = [&](int32_t r) {
    const Neighbours has = neighbours(r);
    int32_t length = 1;
    for (int d = 0; d < dims; ++d) length += has.below[d] + has.above[d];
    return length;
  };
  const double diagonal = 2.0 * dims;
  auto fill_rows = [&](int32_t first, int32_t last, CsrF64& m) {
    for (int32_t r = first; r < last; ++r) {
      const Neighbours has = neighbours(r);
      int32_t k = m.row_ptr[r];
      auto put = [&](int32_t c, double v) {
        m.col_idx[k] = c;
        m.values[k++] = v;
      };
      for (int d = dims - 1; d >= 0; --d) {
        if (has.below[d]) put(r - stride[d], -1.0);
      }
      put(r, diagonal);
      for (int d = 0; d < dims; ++d) {
        if (has.above[d]) put(r + stride[d], -1.0);
      }
    }
  };
  return build_by_rows(size, size, row_length, fill_rows);
}

// k distinct values of [0, n), sorted, into out[0..k).
void draw_distinct(RandomStream& random, int32_t k, int32_t n, int32_t* out) {
  if (k > n / 2) {  // dense rows: draw the columns to leave out instead
    std::vector<int32_t> left_out(static_cast<size_t>(n - k));
    draw_distinct(random, n - k, n, left_out.data());
    int32_t next_out = 0;
    for (int32_t c = 0; c < n; ++c) {
      if (next_out < n - k && left_out[next_out] == c) {
        ++next_out;
      } else {
        *out++ = c;
      }
    }
    return;
  }
  int32_t distinct = 0;
  while (distinct < k) {
    for (int32_t i = distinct; i < k; ++i) {
      out[i] = static_cast<int32_t>(random.below(static_cast<uint32_t>(n)));
    }
    std::sort(out, out + k);
    distinct = static_cast<int32_t>(std::unique(out, out + k) - out);
  }
}

}  // namespace

CsrF64 generate_stencil_2d(int32_t n) { return laplacian(2, n); }

CsrF64 generate_stencil_3d(int32_t n) { return laplacian(3, n); }

CsrF64 generate_uniform(int32_t rows, int32_t cols, int32_t per_row, uint64_t seed) {
  require(rows >= 1 && cols >= 1, "a uniform matrix needs at least 1 row and 1 column");
  require(per_row >= 0 && per_row <= cols, "entries per row must be within 0.." +
                                               std::to_string(cols) + " (the column count), got " +
                                               std::to_string(per_row));
  fitting_int32(int64_t{rows} * per_row, "the uniform matrix's entry count");
  return build_by_rows(
      rows, cols, [&](int32_t) { return per_row; },
      [&](int32_t first, int32_t last, CsrF64& m) {
        for (int32_t r = first; r < last; ++r) {
          RandomStream random(seed, static_cast<uint64_t>(r));
          const int32_t begin = m.row_ptr[r];
          draw_distinct(random, per_row, cols, m.col_idx.data() + begin);
          for (int32_t k = begin; k < begin + per_row; ++k) m.values[k] = random.value();
        }
      });
}

CsrF64 generate_banded(int32_t n, int32_t bandwidth, uint64_t seed) {
  require(n >= 1, "a banded matrix needs n >= 1, got " + std::to_string(n));
  require(bandwidth >= 0 && bandwidth < n, "the bandwidth must be within 0.." +
                                               std::to_string(n - 1) + ", got " +
                                               std::to_string(bandwidth));
  const int64_t w = bandwidth;
  fitting_int32(n * (2 * w + 1) - w * (w + 1), "the banded matrix's entry count");
  auto first_col = [=](int32_t r) { return std::max(0, r - bandwidth); };
  auto last_col = [=](int32_t r) { return std::min(n - 1, r + bandwidth); };
  return build_by_rows(
      n, n, [&](int32_t r) { return last_col(r) - first_col(r) + 1; },
      [&](int32_t first, int32_t last, CsrF64& m) {
        for (int32_t r = first; r < last; ++r) {
          RandomStream random(seed, static_cast<uint64_t>(r));
          int32_t k = m.row_ptr[r];
          for (int32_t c = first_col(r); c <= last_col(r); ++c, ++k) {
            m.col_idx[k] = c;
            m.values[k] = random.value();
          }
        }
      });
}

CsrF64 block_expand(const CsrF64& a, int32_t b, uint64_t seed) {
  require(b >= 1, "the block size must be at least 1, got " + std::to_string(b));
  const int32_t rows = fitting_int32(int64_t{a.rows} * b, "the block-expanded row count");
  const int32_t cols = fitting_int32(int64_t{a.cols} * b, "the block-expanded column count");
  fitting_int32(a.nnz() * b * b, "the block-expanded entry count");
  // Only entries of `a` use the block: with none, its b * b values (b may be 2^20 when `a` is
  // empty, as the limits count entries) would be memory spent on nothing.
  if (a.nnz() == 0) {
    CsrF64 empty;
    empty.rows = rows;
    empty.cols = cols;
    empty.row_ptr.assign(static_cast<size_t>(rows) + 1, 0);
    return empty;
  }
  std::vector<double> block(static_cast<size_t>(b) * b);
  RandomStream random(seed, 0);
  for (double& v : block) v = random.value();
  return build_by_rows(
      rows, cols, [&](int32_t r) { return a.row_length(r / b) * b; },
      [&](int32_t first, int32_t last, CsrF64& m) {
        for (int32_t r = first; r < last; ++r) {
          const int32_t source_row = r / b;
          const double* block_row = block.data() + static_cast<size_t>(r % b) * b;
          int32_t k = m.row_ptr[r];
          for (int32_t s = a.row_ptr[source_row]; s < a.row_ptr[source_row + 1]; ++s) {
            for (int32_t q = 0; q < b; ++q, ++k) {
              m.col_idx[k] = a.col_idx[s] * b + q;
              m.values[k] = a.values[s] * block_row[q];
            }
          }
        }
      });
}

}  // namespace ktune
