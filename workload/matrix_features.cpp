#include "workload/matrix_features.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "workload/input_error.h"
#include "workload/parallel.h"

namespace ktune {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MatrixFeatures, rows, cols, nnz, row_mean, row_cv, row_max,
                                   row_p50, row_p90, row_p99, row_gini, empty_rows, row_histogram,
                                   col_mean, col_cv, col_max, bandwidth_mean, bandwidth_max,
                                   column_locality, block_fill)

namespace {

// Entries looked at per block size when measuring block fill on large matrices.
constexpr int64_t kBlockSampleEntries = 1 << 20;
// Row lengths below this are counted in a table; longer ones (rare) are kept and sorted.
constexpr int32_t kTabulatedLengths = 1 << 16;

int bit_width(uint32_t x) { return x == 0 ? 0 : 32 - __builtin_clz(x); }

double coefficient_of_variation(double sum, double sum_of_squares, double n) {
  if (n == 0 || sum == 0) return 0;
  const double mean = sum / n;
  return std::sqrt(std::max(0.0, sum_of_squares / n - mean * mean)) / mean;
}

// Row lengths in increasing order, as (length, how many rows) runs.
class LengthDistribution {
 public:
  void add(int32_t length) {
    if (length < kTabulatedLengths) {
      ++tabulated_[length];
    } else {
      long_.push_back(length);
    }
  }

  void for_each_run(const std::function<void(int64_t length, int64_t rows)>& visit) {
    std::sort(long_.begin(), long_.end());
    for (int32_t length = 0; length < kTabulatedLengths; ++length) {
      if (tabulated_[length]) visit(length, tabulated_[length]);
    }
    for (size_t i = 0; i < long_.size();) {
      size_t j = i;
      while (j < long_.size() && long_[j] == long_[i]) ++j;
      visit(long_[i], static_cast<int64_t>(j - i));
      i = j;
    }
  }

 private:
  std::vector<int64_t> tabulated_ = std::vector<int64_t>(kTabulatedLengths);
  std::vector<int32_t> long_;
};

// Row statistics from row_ptr and the first and last column of each row: columns are
// sorted, so the gaps between neighbours of a row sum to last - first.
void measure_rows(const CsrF64& m, MatrixFeatures& f) {
  LengthDistribution lengths;
  double sum_of_squares = 0, bandwidth_sum = 0, span_sum = 0, gaps = 0;
  for (int32_t r = 0; r < m.rows; ++r) {
    const int32_t length = m.row_length(r);
    lengths.add(length);
    sum_of_squares += static_cast<double>(length) * length;
    ++f.row_histogram[bit_width(static_cast<uint32_t>(length))];
    if (length == 0) {
      ++f.empty_rows;
      continue;
    }
    const int64_t first = m.col_idx[m.row_ptr[r]], last = m.col_idx[m.row_ptr[r + 1] - 1];
    const int64_t bandwidth = std::max(std::abs(r - first), std::abs(last - r));
    bandwidth_sum += static_cast<double>(bandwidth);
    f.bandwidth_max = std::max(f.bandwidth_max, bandwidth);
    span_sum += static_cast<double>(last - first);
    gaps += length - 1;
  }
  if (m.rows == 0) return;
  const auto rows = static_cast<double>(m.rows);
  f.row_mean = static_cast<double>(m.nnz()) / rows;
  f.row_cv = coefficient_of_variation(static_cast<double>(m.nnz()), sum_of_squares, rows);
  if (f.empty_rows < m.rows) bandwidth_sum /= static_cast<double>(m.rows - f.empty_rows);
  f.bandwidth_mean = bandwidth_sum;
  if (gaps > 0 && m.cols > 0) f.column_locality = (span_sum / gaps) / (m.cols / (f.row_mean + 1));

  // Nearest-rank percentiles and the Gini coefficient, sum over sorted x_i of
  // (2i - n - 1) x_i / (n sum x), taken run by run.
  const int64_t n = m.rows;
  const int64_t rank_p50 = (n * 50 + 99) / 100, rank_p90 = (n * 90 + 99) / 100,
                rank_p99 = (n * 99 + 99) / 100;
  int64_t seen = 0;
  long double gini_sum = 0;
  lengths.for_each_run([&](int64_t length, int64_t count) {
    if (seen < rank_p50 && seen + count >= rank_p50) f.row_p50 = length;
    if (seen < rank_p90 && seen + count >= rank_p90) f.row_p90 = length;
    if (seen < rank_p99 && seen + count >= rank_p99) f.row_p99 = length;
    gini_sum += static_cast<long double>(length) * count * (2 * seen + count - n);
    f.row_max = length;
    seen += count;
  });
  if (m.nnz() > 0) {
    f.row_gini = static_cast<double>(gini_sum / (static_cast<long double>(n) * m.nnz()));
  }
}

void measure_columns(const CsrF64& m, MatrixFeatures& f) {
  if (m.cols == 0) return;
  std::vector<int32_t> count(static_cast<size_t>(m.cols));
  for (int32_t c : m.col_idx) ++count[c];
  double sum_of_squares = 0;
  for (int32_t c : count) {
    sum_of_squares += static_cast<double>(c) * c;
    f.col_max = std::max<int64_t>(f.col_max, c);
  }
  f.col_mean = static_cast<double>(m.nnz()) / m.cols;
  f.col_cv = coefficient_of_variation(static_cast<double>(m.nnz()), sum_of_squares, m.cols);
}

// Every `stride`-th block row, stride chosen so that about kBlockSampleEntries are seen.
double block_fill(const CsrF64& m, int32_t b) {
  const int64_t block_rows = (int64_t{m.rows} + b - 1) / b;
  const int64_t stride = std::max<int64_t>(1, m.nnz() / kBlockSampleEntries);
  std::vector<int32_t> block_cols;
  int64_t entries = 0, blocks = 0;
  for (int64_t block_row = 0; block_row < block_rows; block_row += stride) {
    const auto first = static_cast<int32_t>(block_row * b);
    const int32_t last = std::min<int32_t>(m.rows, first + b);
    block_cols.clear();
    for (int32_t k = m.row_ptr[first]; k < m.row_ptr[last]; ++k) {
      block_cols.push_back(m.col_idx[k] / b);
    }
    std::sort(block_cols.begin(), block_cols.end());
    blocks += std::unique(block_cols.begin(), block_cols.end()) - block_cols.begin();
    entries += static_cast<int64_t>(block_cols.size());
  }
  return blocks == 0 ? 0 : static_cast<double>(entries) / (static_cast<double>(b) * b * blocks);
}

// One place defines the vector: order, names, scaling and weight of every element.
class VectorLayout {
 public:
  virtual ~VectorLayout() = default;
  virtual void add(const std::string& name, double value, double weight) = 0;

  void count(const std::string& name, double value, double weight = 1) {
    add("log2_1p_" + name, std::log2(1 + value), weight);
  }
  void ratio(const std::string& name, double value, double weight = 1) { add(name, value, weight); }
};

void lay_out(const MatrixFeatures& f, VectorLayout& v) {
  v.count("rows", static_cast<double>(f.rows));
  v.count("cols", static_cast<double>(f.cols));
  v.count("nnz", static_cast<double>(f.nnz));
  v.count("row_mean", f.row_mean, 2);
  v.ratio("row_cv", f.row_cv, 2);
  v.count("row_max", static_cast<double>(f.row_max));
  v.count("row_p50", static_cast<double>(f.row_p50));
  v.count("row_p90", static_cast<double>(f.row_p90));
  v.count("row_p99", static_cast<double>(f.row_p99));
  v.ratio("row_gini", f.row_gini, 2);
  v.count("empty_rows", static_cast<double>(f.empty_rows), 0.5);
  for (int bin = 0; bin < kRowHistogramBins; ++bin) {
    const double share =
        f.rows ? static_cast<double>(f.row_histogram[bin]) / static_cast<double>(f.rows) : 0;
    v.ratio("row_share_bin" + std::to_string(bin), share);
  }
  v.count("col_mean", f.col_mean);
  v.ratio("col_cv", f.col_cv);
  v.count("col_max", static_cast<double>(f.col_max), 0.5);
  v.count("bandwidth_mean", f.bandwidth_mean);
  v.count("bandwidth_max", static_cast<double>(f.bandwidth_max), 0.5);
  v.ratio("column_locality", f.column_locality, 2);
  for (int b = kMinBlockSize; b <= kMaxBlockSize; ++b) {
    v.ratio("block_fill_" + std::to_string(b), f.block_fill[b - kMinBlockSize]);
  }
  if (!f.graph) return;
  // Directedness weighs little on its own: one one-way street does not make a road network
  // another class; reciprocity says how far from undirected it is.
  v.ratio("directed", f.graph->directed ? 1 : 0, 0.5);
  v.ratio("reciprocity", f.graph->reciprocity);
  v.count("diameter_estimate", static_cast<double>(f.graph->diameter_estimate));
  v.ratio("reach", f.graph->reach);
  v.ratio("frontier_peak", f.graph->frontier_peak);
}

struct ValueCollector : VectorLayout {
  std::vector<double> values;
  void add(const std::string&, double value, double) override { values.push_back(value); }
};

struct NameCollector : VectorLayout {
  std::vector<std::string> names;
  std::vector<double> weights;
  void add(const std::string& name, double, double weight) override {
    names.push_back(name);
    weights.push_back(weight);
  }
};

NameCollector collect_layout(WorkloadKind kind) {
  MatrixFeatures f;
  if (kind == WorkloadKind::Graph) f.graph = GraphFeatures{};
  NameCollector c;
  lay_out(f, c);
  return c;
}

const NameCollector& layout(WorkloadKind kind) {
  static const NameCollector matrix = collect_layout(WorkloadKind::SparseMatrix);
  static const NameCollector graph = collect_layout(WorkloadKind::Graph);
  return kind == WorkloadKind::Graph ? graph : matrix;
}

}  // namespace

bool MatrixFeatures::operator==(const MatrixFeatures& other) const {
  return features_to_json(*this) == features_to_json(other);
}

MatrixFeatures compute_features(const CsrF64& matrix, const std::function<void()>& alongside) {
  MatrixFeatures f;
  f.rows = matrix.rows;
  f.cols = matrix.cols;
  f.nnz = matrix.nnz();
  // Independent passes writing disjoint members; the longest (scattered column counts) first.
  std::vector<std::function<void()>> tasks = {[&] { measure_columns(matrix, f); }};
  if (alongside) tasks.push_back(alongside);
  tasks.push_back([&] { measure_rows(matrix, f); });
  for (int32_t b = kMinBlockSize; b <= kMaxBlockSize; ++b) {
    tasks.push_back([&, b] { f.block_fill[b - kMinBlockSize] = block_fill(matrix, b); });
  }
  const int threads = std::max(worker_count(f.nnz, 1 << 18), alongside ? 2 : 1);
  parallel_for(static_cast<int>(tasks.size()), threads, [&](int t) { tasks[t](); });
  return f;
}

nlohmann::json features_to_json(const MatrixFeatures& features) {
  nlohmann::json j = features;
  if (features.graph) j["graph"] = *features.graph;
  return j;
}

MatrixFeatures features_from_json(const nlohmann::json& json) {
  try {
    if (json.at("row_histogram").size() != kRowHistogramBins ||
        json.at("block_fill").size() != kMaxBlockSize - kMinBlockSize + 1) {
      throw InputError("matrix features: row_histogram needs " + std::to_string(kRowHistogramBins) +
                       " bins and block_fill " + std::to_string(kMaxBlockSize - kMinBlockSize + 1) +
                       " values");
    }
    MatrixFeatures f = json.get<MatrixFeatures>();
    if (json.contains("graph")) f.graph = json.at("graph").get<GraphFeatures>();
    return f;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("matrix features: ") + e.what());
  }
}

std::vector<double> feature_vector(const MatrixFeatures& features) {
  ValueCollector c;
  lay_out(features, c);
  return std::move(c.values);
}

const std::vector<std::string>& feature_vector_names(WorkloadKind kind) { return layout(kind).names; }

const std::vector<double>& feature_vector_weights(WorkloadKind kind) { return layout(kind).weights; }

}  // namespace ktune
