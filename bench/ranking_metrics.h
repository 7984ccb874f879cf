#pragma once
// How well predicted times rank configurations against measured ones (emulator_accuracy):
// Spearman's rho, and where the measured best lies in the predicted order.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

#include "gpu/sample_statistics.h"

namespace ktune::bench {

// The resolution of the ground truth's event timer: on the H200 every recorded median is a
// multiple of 16 ns (half a tick: the median of an even count averages two readings), so two
// medians within 32 ns of each other are not ordered by the measurement.
constexpr double kTimerTickUs = 0.032;

// Ranks from 1, ties sharing their mean rank (Spearman's rho on tied data).
inline std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    for (size_t k = i; k <= j; ++k) r[order[k]] = (static_cast<double>(i + j) / 2) + 1;
    i = j + 1;
  }
  return r;
}

inline double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size());
  const double mean = (n + 1) / 2;
  double cov = 0, va = 0, vb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  return va > 0 && vb > 0 ? cov / std::sqrt(va * vb) : 0;
}

// How far a measured median may lie from the true one: McGill, Tukey and Larsen's notch,
// 1.58 IQR / sqrt(n), over which two medians differ at about 95% when their notches do not
// overlap; never narrower than half a timer tick, the resolution of a recorded median.
inline double median_uncertainty_us(double iqr_us, double count, double tick = kTimerTickUs) {
  return std::max(median_notch(iqr_us, count), tick / 2);
}

// Where the measured best lies in the order of the predictions (ranks from 1).
struct BestRank {
  size_t best = 0;         // index of the first configuration with the least measured time
  size_t strict_rank = 0;  // that one's predicted rank
  // Every configuration whose median the measurement cannot order above the least one (their
  // uncertainty intervals overlap) is a measured best. How many there are, and the best
  // predicted rank among them.
  size_t co_best = 0;
  size_t co_best_rank = 0;
};

// `uncertainty[i]` is median_uncertainty_us of configuration i; without it, half a tick each
// (medians within one tick are tied). Predictions tie in input order (a stable sort). Empty
// input gives all zeros.
inline BestRank best_rank(const std::vector<double>& measured, const std::vector<double>& predicted,
                          std::vector<double> uncertainty = {}) {
  BestRank r;
  if (measured.empty() || measured.size() != predicted.size()) return r;
  if (uncertainty.size() != measured.size()) uncertainty.assign(measured.size(), kTimerTickUs / 2);
  std::vector<size_t> by_prediction(measured.size());
  std::iota(by_prediction.begin(), by_prediction.end(), 0);
  std::stable_sort(by_prediction.begin(), by_prediction.end(),
                   [&](size_t a, size_t b) { return predicted[a] < predicted[b]; });
  r.best = static_cast<size_t>(std::min_element(measured.begin(), measured.end()) - measured.begin());
  const double best_high = measured[r.best] + uncertainty[r.best];
  for (size_t i = 0; i < by_prediction.size(); ++i) {
    const size_t c = by_prediction[i];
    if (c == r.best) r.strict_rank = i + 1;
    if ((measured[c] - uncertainty[c]) > best_high * (1 + 1e-9)) continue;  // not rounding
    r.co_best += 1;
    if (r.co_best_rank == 0) r.co_best_rank = i + 1;
  }
  return r;
}

}  // namespace ktune::bench
