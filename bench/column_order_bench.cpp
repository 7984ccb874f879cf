// Does the order of the columns matter for SpMV on power-law graphs? R-MAT scrambles vertex
// labels, so the hot entries of x are spread over all of it; relabelling the columns by
// descending degree (A·Pᵀ, with x permuted alike) packs them into a few cache lines. This
// measures the best configuration of the spmv space and the best cuSPARSE algorithm on both
// orders (the evidence for a column-reordered format; see bench/README.md).
// usage: column_order_bench   (on a GPU machine; prints one line per graph and dtype)
#include <algorithm>
#include <iostream>
#include <numeric>

#include "exhaustive_tuner.h"
#include "workload/generators.h"

using namespace ktune;

namespace {

// Columns renumbered by descending degree (ties by old number); rows keep sorted columns.
CsrF64 columns_by_degree(const CsrF64& a) {
  std::vector<int64_t> degree(static_cast<size_t>(a.cols), 0);
  for (int32_t c : a.col_idx) ++degree[static_cast<size_t>(c)];
  std::vector<int32_t> order(static_cast<size_t>(a.cols));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t p, int32_t q) { return degree[p] > degree[q]; });
  std::vector<int32_t> rank(static_cast<size_t>(a.cols));
  for (int32_t i = 0; i < a.cols; ++i) rank[static_cast<size_t>(order[i])] = i;
  CsrF64 b = a;
  std::vector<std::pair<int32_t, double>> row;
  for (int32_t r = 0; r < a.rows; ++r) {
    row.clear();
    for (int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) row.push_back({rank[a.col_idx[k]], a.values[k]});
    std::sort(row.begin(), row.end());
    for (size_t i = 0; i < row.size(); ++i) {
      b.col_idx[a.row_ptr[r] + i] = row[i].first;
      b.values[a.row_ptr[r] + i] = row[i].second;
    }
  }
  return b;
}

double best_vendor_us(const TuneOutcome& o) {
  double best = 0;
  for (const VendorTiming& v : o.vendor)
    if (v.measurement.status == MeasureStatus::Ok && (best == 0 || v.measurement.median_us < best))
      best = v.measurement.median_us;
  return best;
}

}  // namespace

int main() {
  Measurer measurer(default_worker_path());
  if (!measurer.available()) {
    std::cerr << "column_order_bench: no GPU: " << measurer.device().why_absent << "\n";
    return 1;
  }
  const bench::ExhaustiveTuner exhaustive(measurer);
  const Tuner& tuner = exhaustive.tuner();
  for (int scale : {20, 22}) {
    Workload original{WorkloadKind::Graph, generate_rmat(scale, 16, 1)};
    Workload reordered{WorkloadKind::Graph, columns_by_degree(original.matrix)};
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      TuneRequest request;
      request.family = find_family("spmv");
      request.problem = Problem::of(dtype);
      request.budget.seconds = 1e9;
      bench::CollectingObserver q1, q2;
      const TuneOutcome a = tuner.run(original, request, q1), b = tuner.run(reordered, request, q2);
      std::cout << "rmat" << scale << " " << to_string(dtype) << ": original " << a.best->measurement->median_us
                << " us (" << a.best->config_key << "), cuSPARSE " << best_vendor_us(a) << " us | columns by degree "
                << b.best->measurement->median_us << " us (" << b.best->config_key << "), cuSPARSE " << best_vendor_us(b)
                << " us\n";
    }
  }
  return 0;
}
