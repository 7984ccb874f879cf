#pragma once
// What the nearest-neighbour reuse of tuned configurations compares between two matrices
// (DESIGN.md, "Signatures"): shape, row and column length statistics, bandwidth, column
// locality and how well b x b blocks fill; for graphs, their traversal features too.
#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "workload/csr_matrix.h"
#include "workload/graph_features.h"
#include "workload/workload.h"

namespace ktune {

// Bin k counts the rows whose length needs k bits: 0 | 1 | 2-3 | 4-7 | ... | 2^30..2^31-1.
inline constexpr int kRowHistogramBins = 32;
inline constexpr int kMinBlockSize = 2;
inline constexpr int kMaxBlockSize = 8;

struct MatrixFeatures {
  int64_t rows = 0, cols = 0, nnz = 0;
  double row_mean = 0, row_cv = 0;  // cv: standard deviation / mean
  int64_t row_max = 0, row_p50 = 0, row_p90 = 0, row_p99 = 0;
  double row_gini = 0;  // 0: all rows equally long, towards 1: a few rows hold everything
  int64_t empty_rows = 0;
  std::array<int64_t, kRowHistogramBins> row_histogram{};
  double col_mean = 0, col_cv = 0;
  int64_t col_max = 0;
  double bandwidth_mean = 0;  // of max |i - j| over each non-empty row
  int64_t bandwidth_max = 0;
  // Mean gap between neighbouring columns of a row over the gap of uniformly random columns
  // (cols / (row_mean + 1)): near 1 for random, near 0 for clustered columns.
  double column_locality = 0;
  // nnz / (b^2 * non-empty b x b blocks) for b = 2..8; 1 means perfectly dense blocks.
  // Large matrices are measured on an evenly spread sample of block rows.
  std::array<double, kMaxBlockSize - kMinBlockSize + 1> block_fill{};
  // Graph workloads only (compute_signature): the row statistics above are their out-degrees.
  std::optional<GraphFeatures> graph;

  bool operator==(const MatrixFeatures& other) const;
};

// The passes run on several threads; `alongside`, if given, runs on one of them meanwhile
// (compute_signature hashes there).
MatrixFeatures compute_features(const CsrF64& matrix, const std::function<void()>& alongside = {});

nlohmann::json features_to_json(const MatrixFeatures& features);
// Throws InputError when a field is missing or of the wrong type.
MatrixFeatures features_from_json(const nlohmann::json& json);

// The features in a fixed order, counts as log2(1 + x) and ratios as they are, for
// signature_distance; names say which is which. A graph's vector is a matrix's with the
// graph features after it: the two never compare (ConfigLookup skips other lengths).
std::vector<double> feature_vector(const MatrixFeatures& features);
const std::vector<std::string>& feature_vector_names(WorkloadKind kind = WorkloadKind::SparseMatrix);
// signature_distance's, in the same order.
const std::vector<double>& feature_vector_weights(WorkloadKind kind = WorkloadKind::SparseMatrix);

}  // namespace ktune
