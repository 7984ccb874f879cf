#include "workload/signature.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "workload/generators.h"
#include "workload/input_error.h"
#include "workload/sha256.h"

namespace ktune {
namespace {

// A copy of `m` with `count` entries moved to another free column of their row, spread
// evenly over the matrix.
CsrF64 with_entries_moved(CsrF64 m, int64_t count) {
  const int64_t step = std::max<int64_t>(1, m.nnz() / count);
  for (int32_t r = 0, moved = 0; r < m.rows && moved < count; ++r) {
    const int32_t begin = m.row_ptr[r], end = m.row_ptr[r + 1];
    if (end == begin || (begin / step) == (end / step)) continue;  // one per step of entries
    std::set<int32_t> columns(m.col_idx.begin() + begin, m.col_idx.begin() + end);
    int32_t target = (m.col_idx[begin] + m.cols / 2) % m.cols;
    while (columns.count(target)) target = (target + 1) % m.cols;
    columns.erase(m.col_idx[begin]);
    columns.insert(target);
    std::copy(columns.begin(), columns.end(), m.col_idx.begin() + begin);
    ++moved;
  }
  return m;
}

TEST(ExactSignature, HashesKindShapeAndIndicesAsDocumented) {
  const CsrF64 m = generate_uniform(50, 60, 3, 1);
  std::string bytes = "ktune-csr-v1 kind=sparse_matrix rows=50 cols=60 nnz=150\n";
  bytes.append(reinterpret_cast<const char*>(m.row_ptr.data()), m.row_ptr.size() * 4);
  bytes.append(reinterpret_cast<const char*>(m.col_idx.data()), m.col_idx.size() * 4);
  EXPECT_EQ(compute_signature(m, WorkloadKind::SparseMatrix).exact, sha256_hex(bytes));
}

TEST(ExactSignature, IgnoresValuesButNotStructureOrKind) {
  const CsrF64 m = generate_banded(300, 4, 1);
  const std::string exact = compute_signature(m, WorkloadKind::SparseMatrix).exact;
  CsrF64 other_values = m;
  for (double& v : other_values.values) v = -3 * v;
  EXPECT_EQ(compute_signature(other_values, WorkloadKind::SparseMatrix).exact, exact);
  EXPECT_EQ(compute_signature(generate_banded(300, 4, 2), WorkloadKind::SparseMatrix).exact, exact);

  CsrF64 moved = m;
  moved.col_idx[m.row_ptr[101] - 1] += 1;  // the last entry of row 100 moves one column right
  EXPECT_NE(compute_signature(moved, WorkloadKind::SparseMatrix).exact, exact);
  EXPECT_NE(compute_signature(m, WorkloadKind::Graph).exact, exact);
  CsrF64 wider = m;
  wider.cols += 1;
  EXPECT_NE(compute_signature(wider, WorkloadKind::SparseMatrix).exact, exact);
}

// Every feature computed the slow and obvious way.
MatrixFeatures brute_force_features(const CsrF64& m) {
  MatrixFeatures f;
  f.rows = m.rows;
  f.cols = m.cols;
  f.nnz = m.nnz();
  std::vector<int64_t> lengths;
  double gaps = 0, gap_sum = 0, bandwidth_sum = 0;
  for (int r = 0; r < m.rows; ++r) {
    const int64_t length = m.row_length(r);
    lengths.push_back(length);
    int bin = 0;
    while ((int64_t{1} << bin) <= length) ++bin;
    ++f.row_histogram[bin];
    f.empty_rows += length == 0;
    int64_t bandwidth = 0;
    for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      bandwidth = std::max<int64_t>(bandwidth, std::abs(r - m.col_idx[k]));
      if (k + 1 < m.row_ptr[r + 1]) {
        gap_sum += m.col_idx[k + 1] - m.col_idx[k];
        ++gaps;
      }
    }
    if (length) bandwidth_sum += static_cast<double>(bandwidth);
    f.bandwidth_max = std::max(f.bandwidth_max, bandwidth);
  }
  const double n = m.rows;
  f.row_mean = static_cast<double>(f.nnz) / n;
  double variance = 0;
  for (int64_t l : lengths) {
    variance += (static_cast<double>(l) - f.row_mean) * (static_cast<double>(l) - f.row_mean) / n;
  }
  f.row_cv = std::sqrt(variance) / f.row_mean;
  std::vector<int64_t> sorted = lengths;
  std::sort(sorted.begin(), sorted.end());
  auto percentile = [&](double p) { return sorted[static_cast<size_t>(std::ceil(p * n)) - 1]; };
  f.row_p50 = percentile(0.5);
  f.row_p90 = percentile(0.9);
  f.row_p99 = percentile(0.99);
  f.row_max = sorted.back();
  double absolute_differences = 0;  // Gini: mean absolute difference over twice the mean
  for (int64_t a : lengths) {
    for (int64_t b : lengths) absolute_differences += static_cast<double>(std::abs(a - b));
  }
  f.row_gini = absolute_differences / (2 * n * n * f.row_mean);
  f.bandwidth_mean = bandwidth_sum / static_cast<double>(f.rows - f.empty_rows);
  f.column_locality = gaps ? (gap_sum / gaps) / (m.cols / (f.row_mean + 1)) : 0;
  std::vector<double> column(static_cast<size_t>(m.cols));
  for (int32_t c : m.col_idx) ++column[c];
  f.col_mean = static_cast<double>(f.nnz) / m.cols;
  double col_variance = 0;
  for (double c : column) col_variance += (c - f.col_mean) * (c - f.col_mean) / m.cols;
  f.col_cv = std::sqrt(col_variance) / f.col_mean;
  f.col_max = static_cast<int64_t>(*std::max_element(column.begin(), column.end()));
  for (int b = kMinBlockSize; b <= kMaxBlockSize; ++b) {
    std::set<std::pair<int, int>> blocks;
    for (int r = 0; r < m.rows; ++r) {
      for (int k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
        blocks.insert({r / b, m.col_idx[k] / b});
      }
    }
    f.block_fill[b - kMinBlockSize] =
        static_cast<double>(f.nnz) / (b * b * static_cast<double>(blocks.size()));
  }
  return f;
}

void expect_features_near(const MatrixFeatures& a, const MatrixFeatures& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.nnz, b.nnz);
  EXPECT_NEAR(a.row_mean, b.row_mean, 1e-9);
  EXPECT_NEAR(a.row_cv, b.row_cv, 1e-9);
  EXPECT_EQ(a.row_max, b.row_max);
  EXPECT_EQ(a.row_p50, b.row_p50);
  EXPECT_EQ(a.row_p90, b.row_p90);
  EXPECT_EQ(a.row_p99, b.row_p99);
  EXPECT_NEAR(a.row_gini, b.row_gini, 1e-9);
  EXPECT_EQ(a.empty_rows, b.empty_rows);
  EXPECT_EQ(a.row_histogram, b.row_histogram);
  EXPECT_NEAR(a.col_mean, b.col_mean, 1e-9);
  EXPECT_NEAR(a.col_cv, b.col_cv, 1e-9);
  EXPECT_EQ(a.col_max, b.col_max);
  EXPECT_NEAR(a.bandwidth_mean, b.bandwidth_mean, 1e-9);
  EXPECT_EQ(a.bandwidth_max, b.bandwidth_max);
  EXPECT_NEAR(a.column_locality, b.column_locality, 1e-9);
  for (size_t i = 0; i < a.block_fill.size(); ++i) {
    EXPECT_NEAR(a.block_fill[i], b.block_fill[i], 1e-9) << i;
  }
}

TEST(MatrixFeatures, MatchBruteForce) {
  expect_features_near(compute_features(generate_stencil_2d(20)),
                       brute_force_features(generate_stencil_2d(20)));
  expect_features_near(compute_features(generate_rmat(9, 8, 3)),
                       brute_force_features(generate_rmat(9, 8, 3)));
  const CsrF64 expanded = block_expand(generate_uniform(60, 50, 3, 2), 3, 1);
  expect_features_near(compute_features(expanded), brute_force_features(expanded));
}

TEST(MatrixFeatures, EmptyRowsAndEmptyMatrices) {
  const CsrF64 full = generate_uniform(40, 30, 5, 4);
  CsrF64 m{40, 30, {0}, {}, {}};  // rows 10..19 emptied
  for (int r = 0; r < 40; ++r) {
    if (r < 10 || r >= 20) {
      m.col_idx.insert(m.col_idx.end(), full.col_idx.begin() + full.row_ptr[r],
                       full.col_idx.begin() + full.row_ptr[r + 1]);
    }
    m.row_ptr.push_back(static_cast<int32_t>(m.col_idx.size()));
  }
  m.values.assign(m.col_idx.size(), 1.0);
  const MatrixFeatures f = compute_features(m);
  EXPECT_EQ(f.empty_rows, 10);
  expect_features_near(f, brute_force_features(m));

  CsrF64 empty;
  empty.rows = 3;
  empty.cols = 4;
  empty.row_ptr = {0, 0, 0, 0};
  const MatrixFeatures e = compute_features(empty);
  EXPECT_EQ(e.empty_rows, 3);
  EXPECT_EQ(e.row_gini, 0);
  for (double v : feature_vector(e)) EXPECT_TRUE(std::isfinite(v));
  const MatrixFeatures none = compute_features(CsrF64{0, 0, {0}, {}, {}});
  for (double v : feature_vector(none)) EXPECT_TRUE(std::isfinite(v));
}

// Large enough that block fill is sampled: a 3 x 3 block expansion still fills its blocks.
TEST(MatrixFeatures, SampledBlockFillSeesDenseBlocks) {
  const CsrF64 m = block_expand(generate_uniform(200000, 200000, 2, 3), 3, 1);
  ASSERT_GT(m.nnz(), 2 << 20);
  const MatrixFeatures f = compute_features(m);
  EXPECT_DOUBLE_EQ(f.block_fill[3 - kMinBlockSize], 1.0);
  EXPECT_LT(f.block_fill[2 - kMinBlockSize], 0.8);  // 2 x 2 blocks straddle the 3 x 3 ones
}

TEST(MatrixFeatures, SameWithOrWithoutWorkAlongside) {
  const CsrF64 m = generate_rmat(10, 8, 1);
  bool ran = false;
  EXPECT_EQ(compute_features(m, [&] { ran = true; }), compute_features(m));
  EXPECT_TRUE(ran);
}

TEST(MatrixFeatures, JsonRoundTrip) {
  const MatrixFeatures f = compute_features(generate_rmat(9, 4, 2));
  const nlohmann::json j = features_to_json(f);
  EXPECT_EQ(j.at("nnz"), f.nnz);
  EXPECT_EQ(j.at("row_histogram").size(), static_cast<size_t>(kRowHistogramBins));
  EXPECT_EQ(features_from_json(nlohmann::json::parse(j.dump())), f);

  nlohmann::json missing = j;
  missing.erase("row_gini");
  EXPECT_THROW(features_from_json(missing), InputError);
  nlohmann::json mistyped = j;
  mistyped["rows"] = "many";
  EXPECT_THROW(features_from_json(mistyped), InputError);
  nlohmann::json short_histogram = j;
  short_histogram["row_histogram"].erase(0);
  EXPECT_THROW(features_from_json(short_histogram), InputError);
  EXPECT_THROW(features_from_json(nlohmann::json::array()), InputError);
}

TEST(FeatureVector, LayoutAndScaling) {
  const MatrixFeatures f = compute_features(generate_stencil_2d(30));
  const std::vector<double> v = feature_vector(f);
  const auto& names = feature_vector_names();
  ASSERT_EQ(v.size(), names.size());
  ASSERT_EQ(v.size(), feature_vector_weights().size());
  auto at = [&](const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return v[static_cast<size_t>(it - names.begin())];
  };
  EXPECT_DOUBLE_EQ(at("log2_1p_nnz"), std::log2(1.0 + 5 * 900 - 4 * 30));
  EXPECT_DOUBLE_EQ(at("row_gini"), f.row_gini);
  EXPECT_DOUBLE_EQ(at("block_fill_2"), f.block_fill[0]);
}

TEST(SignatureDistance, ZeroToItselfSmallForSmallEditsLargeAcrossClasses) {
  const CsrF64 uniform = generate_uniform(100000, 100000, 8, 1);
  const Signature base = compute_signature(uniform, WorkloadKind::SparseMatrix);
  EXPECT_EQ(signature_distance(base.vector, base.vector), 0.0);

  const CsrF64 edited = with_entries_moved(uniform, uniform.nnz() / 1000);
  ASSERT_NE(edited.col_idx, uniform.col_idx);
  const Signature near = compute_signature(edited, WorkloadKind::SparseMatrix);
  EXPECT_NE(near.exact, base.exact);
  const double small = signature_distance(base.vector, near.vector);

  const double to_stencil = signature_distance(
      base.vector, compute_signature(generate_stencil_2d(316), WorkloadKind::SparseMatrix).vector);
  const double to_rmat = signature_distance(
      base.vector, compute_signature(generate_rmat(17, 6, 1), WorkloadKind::SparseMatrix).vector);
  EXPECT_LT(small, 0.05);
  EXPECT_GT(to_stencil, 20 * small);
  EXPECT_GT(to_rmat, 20 * small);
  EXPECT_GT(to_stencil, 1.0);
  EXPECT_GT(to_rmat, 1.0);
}

TEST(SignatureDistance, MismatchedLengthsAreInputErrors) {
  const std::vector<double> v = feature_vector(MatrixFeatures{});
  EXPECT_THROW(signature_distance(v, std::vector<double>(v.size() - 1)), InputError);
  EXPECT_THROW(signature_distance({1, 2}, {1, 2}), InputError);
}

// A dense workload is its shape: equal shapes sign alike, others not, and no matrix's hash
// equals one; having no features, two dense workloads are apart only by their problems.
TEST(DenseSignature, HashesTheShapeAndHasNoFeatures) {
  const Signature a = dense_signature(R"({"k":16384,"m":384,"n":384})");
  EXPECT_EQ(a.exact, dense_signature(R"({"k":16384,"m":384,"n":384})").exact);
  EXPECT_NE(a.exact, dense_signature(R"({"k":16384,"m":384,"n":385})").exact);
  EXPECT_NE(a.exact, compute_signature(CsrF64{}, WorkloadKind::SparseMatrix).exact);
  EXPECT_TRUE(a.vector.empty());
  EXPECT_EQ(signature_distance(a.vector, a.vector), 0);
  EXPECT_THROW(signature_distance(a.vector, feature_vector(MatrixFeatures{})), InputError);
}

TEST(Signature, ToJsonCarriesAllThree) {
  const Signature s = compute_signature(generate_stencil_3d(6), WorkloadKind::SparseMatrix);
  const nlohmann::json j = s.to_json();
  EXPECT_EQ(j.at("exact"), s.exact);
  EXPECT_EQ(features_from_json(j.at("features")), s.features);
  EXPECT_EQ(j.at("vector").get<std::vector<double>>(), s.vector);
}

}  // namespace
}  // namespace ktune
