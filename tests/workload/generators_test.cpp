#include "workload/generators.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "workload/input_error.h"
#include "csr_entries.h"

namespace ktune {
namespace {

using testing_support::Entries;
using testing_support::to_entries;

// Every row strictly increasing in range, row_ptr consistent: a CSR matrix as promised.
void expect_well_formed(const CsrF64& m) {
  ASSERT_EQ(m.row_ptr.size(), static_cast<size_t>(m.rows) + 1);
  ASSERT_EQ(m.row_ptr.front(), 0);
  ASSERT_EQ(m.row_ptr.back(), m.nnz());
  ASSERT_EQ(m.values.size(), m.col_idx.size());
  for (int r = 0; r < m.rows; ++r) {
    for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      ASSERT_TRUE(m.col_idx[k] >= 0 && m.col_idx[k] < m.cols) << "row " << r;
      if (k > m.row_ptr[r]) {
        ASSERT_LT(m.col_idx[k - 1], m.col_idx[k]) << "row " << r;
      }
    }
  }
}

void expect_identical(const CsrF64& a, const CsrF64& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.row_ptr, b.row_ptr);
  EXPECT_EQ(a.col_idx, b.col_idx);
  EXPECT_EQ(a.values, b.values);
}

bool values_in_unit_range(const CsrF64& m) {
  return std::all_of(m.values.begin(), m.values.end(),
                     [](double v) { return v >= 0.5 && v < 1.5; });
}

// The Laplacian written out point by point from grid coordinates.
Entries laplacian_by_grid(int dims, int n) {
  Entries out;
  const int points = dims == 2 ? n * n : n * n * n;
  for (int p = 0; p < points; ++p) {
    const int x = p % n, y = (p / n) % n, z = dims == 3 ? p / (n * n) : 0;
    out[{p, p}] = 2.0 * dims;
    const int coordinate[3] = {x, y, z};
    const int stride[3] = {1, n, n * n};
    for (int d = 0; d < dims; ++d) {
      if (coordinate[d] > 0) out[{p, p - stride[d]}] = -1.0;
      if (coordinate[d] < n - 1) out[{p, p + stride[d]}] = -1.0;
    }
  }
  return out;
}

TEST(Stencil2d, MatchesGridConstructionAndFormula) {
  for (int n : {1, 2, 3, 7, 40}) {
    const CsrF64 m = generate_stencil_2d(n);
    expect_well_formed(m);
    EXPECT_EQ(m.rows, n * n);
    EXPECT_EQ(m.nnz(), 5LL * n * n - 4LL * n) << n;
    EXPECT_EQ(to_entries(m), laplacian_by_grid(2, n)) << n;
  }
}

TEST(Stencil3d, MatchesGridConstructionAndFormula) {
  for (int n : {1, 2, 5, 12}) {
    const CsrF64 m = generate_stencil_3d(n);
    expect_well_formed(m);
    EXPECT_EQ(m.rows, n * n * n);
    EXPECT_EQ(m.nnz(), 7LL * n * n * n - 6LL * n * n) << n;
    EXPECT_EQ(to_entries(m), laplacian_by_grid(3, n)) << n;
  }
}

TEST(Stencils, AreSymmetricWithZeroRowSumsInside) {
  for (const CsrF64& m : {generate_stencil_2d(9), generate_stencil_3d(6)}) {
    const Entries e = to_entries(m);
    for (const auto& [at, v] : e) EXPECT_EQ(e.at({at.second, at.first}), v);
    int zero_sum_rows = 0;
    for (int r = 0; r < m.rows; ++r) {
      double sum = 0;
      for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) sum += m.values[k];
      zero_sum_rows += sum == 0;
    }
    const int interior = m.rows == 81 ? 7 * 7 : 4 * 4 * 4;
    EXPECT_EQ(zero_sum_rows, interior);
  }
}

TEST(Stencils, RejectBadSizes) {
  EXPECT_THROW(generate_stencil_2d(0), InputError);
  EXPECT_THROW(generate_stencil_3d(-3), InputError);
  EXPECT_THROW(generate_stencil_2d(50000), LimitError);  // 2.5e9 rows
  EXPECT_THROW(generate_stencil_3d(1300), LimitError);   // 2.2e9 rows
}

TEST(Rmat, SizesSkewAndValues) {
  const int scale = 13, edge_factor = 8;
  const CsrF64 m = generate_rmat(scale, edge_factor, 5);
  expect_well_formed(m);
  EXPECT_EQ(m.rows, 1 << scale);
  EXPECT_EQ(m.cols, 1 << scale);
  const int64_t generated = int64_t{edge_factor} << scale;
  EXPECT_LE(m.nnz(), generated);
  EXPECT_GT(m.nnz(), generated / 2);  // repeats are merged, but most edges are distinct
  int max_degree = 0;
  for (int r = 0; r < m.rows; ++r) max_degree = std::max(max_degree, m.row_length(r));
  const double mean_degree = static_cast<double>(m.nnz()) / m.rows;
  EXPECT_GT(max_degree, 20 * mean_degree);
  EXPECT_TRUE(values_in_unit_range(m));
}

// With a = 1 every edge lands in the top-left quadrant at every level: the single edge 0 -> 0
// (relabelled), however many are generated.
TEST(Rmat, DegenerateProbabilitiesGiveOneEdge) {
  const CsrF64 m = generate_rmat(6, 4, 1, {1.0, 0.0, 0.0});
  EXPECT_EQ(m.nnz(), 1);
  const int32_t row = static_cast<int32_t>(std::upper_bound(m.row_ptr.begin(), m.row_ptr.end(), 0) -
                                           m.row_ptr.begin() - 1);
  EXPECT_EQ(m.col_idx[0], row);  // u == v, so both map to the same label
}

// Uniform quadrant probabilities make R-MAT an Erdos-Renyi graph: no vertex stands out.
TEST(Rmat, UniformProbabilitiesHaveNoSkew) {
  const CsrF64 m = generate_rmat(12, 16, 3, {0.25, 0.25, 0.25});
  int max_degree = 0;
  for (int r = 0; r < m.rows; ++r) max_degree = std::max(max_degree, m.row_length(r));
  EXPECT_LT(max_degree, 3 * 16);
}

// The graph is the same with or without values; every edge draws its own value.
TEST(Rmat, ValuesBelongToTheirEdgesAndLeaveTheGraphAsItIs) {
  const CsrF64 with = generate_rmat(11, 8, 4);
  const CsrF64 without = generate_rmat(11, 8, 4, {}, false);
  EXPECT_EQ(without.row_ptr, with.row_ptr);
  EXPECT_EQ(without.col_idx, with.col_idx);
  EXPECT_TRUE(without.values.empty());
  ASSERT_EQ(with.values.size(), with.col_idx.size());
  // Every value is drawn independently: no two of a row's edges share one.
  for (int32_t r = 0; r < with.rows; ++r)
    for (int32_t k = with.row_ptr[r] + 1; k < with.row_ptr[r + 1]; ++k) EXPECT_NE(with.values[k], with.values[k - 1]);
}

TEST(Rmat, DeterministicBySeed) {
  expect_identical(generate_rmat(10, 4, 11), generate_rmat(10, 4, 11));
  EXPECT_NE(generate_rmat(10, 4, 11).col_idx, generate_rmat(10, 4, 12).col_idx);
}

TEST(Rmat, RejectsBadParameters) {
  EXPECT_THROW(generate_rmat(0, 4, 1), InputError);
  EXPECT_THROW(generate_rmat(10, 0, 1), InputError);
  EXPECT_THROW(generate_rmat(10, 4, 1, {0.6, 0.3, 0.3}), InputError);
  EXPECT_THROW(generate_rmat(31, 1, 1), LimitError);
  EXPECT_THROW(generate_rmat(28, 16, 1), LimitError);
}

TEST(Uniform, DistinctColumnsPerRow) {
  for (int per_row : {0, 1, 5, 40, 63, 64}) {
    const CsrF64 m = generate_uniform(300, 64, per_row, 2);
    expect_well_formed(m);  // strictly increasing rows: the columns are distinct
    EXPECT_EQ(m.nnz(), 300 * per_row);
    for (int r = 0; r < m.rows; ++r) EXPECT_EQ(m.row_length(r), per_row);
    EXPECT_TRUE(values_in_unit_range(m));
  }
}

TEST(Uniform, ColumnsSpreadOverTheMatrix) {
  const CsrF64 m = generate_uniform(2000, 1000, 10, 4);
  std::vector<int> hits(1000);
  for (int32_t c : m.col_idx) ++hits[c];
  EXPECT_GT(*std::min_element(hits.begin(), hits.end()), 0);
  EXPECT_LT(*std::max_element(hits.begin(), hits.end()), 60);  // mean 20
}

TEST(Uniform, DeterministicBySeedAndRejectsBadParameters) {
  expect_identical(generate_uniform(500, 700, 9, 8), generate_uniform(500, 700, 9, 8));
  EXPECT_NE(generate_uniform(500, 700, 9, 8).col_idx, generate_uniform(500, 700, 9, 9).col_idx);
  EXPECT_THROW(generate_uniform(10, 5, 6, 1), InputError);
  EXPECT_THROW(generate_uniform(0, 5, 1, 1), InputError);
  EXPECT_THROW(generate_uniform(1 << 30, 100, 4, 1), LimitError);
}

TEST(Banded, EveryEntryWithinTheBand) {
  for (int w : {0, 1, 3, 19}) {
    const int n = 20;
    const CsrF64 m = generate_banded(n, w, 6);
    expect_well_formed(m);
    int64_t expected = 0;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) expected += std::abs(i - j) <= w;
    }
    EXPECT_EQ(m.nnz(), expected);
    EXPECT_EQ(m.nnz(), int64_t{n} * (2 * w + 1) - int64_t{w} * (w + 1));
    for (int r = 0; r < n; ++r) {
      for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
        EXPECT_LE(std::abs(r - m.col_idx[k]), w);
      }
    }
    EXPECT_TRUE(values_in_unit_range(m));
  }
  EXPECT_THROW(generate_banded(10, 10, 1), InputError);
  EXPECT_THROW(generate_banded(10, -1, 1), InputError);
}

TEST(BlockExpand, IsTheKroneckerProductWithOneDenseBlock) {
  const CsrF64 a = generate_uniform(30, 20, 4, 1);
  for (int b : {1, 2, 3}) {
    const CsrF64 m = block_expand(a, b, 7);
    expect_well_formed(m);
    EXPECT_EQ(m.rows, a.rows * b);
    EXPECT_EQ(m.cols, a.cols * b);
    EXPECT_EQ(m.nnz(), a.nnz() * b * b);
    // The dense block B, read off the first entry of A; every other block must be a(i,j) * B.
    const Entries e = to_entries(m), source = to_entries(a);
    const auto [first, a00] = *source.begin();
    for (const auto& [at, v] : source) {
      for (int p = 0; p < b; ++p) {
        for (int q = 0; q < b; ++q) {
          const double block_value = e.at({first.first * b + p, first.second * b + q}) / a00;
          EXPECT_DOUBLE_EQ(e.at({at.first * b + p, at.second * b + q}), v * block_value);
        }
      }
    }
  }
  EXPECT_THROW(block_expand(a, 0, 1), InputError);
  EXPECT_THROW(block_expand(generate_stencil_2d(300), 100, 1), LimitError);
}

}  // namespace
}  // namespace ktune
