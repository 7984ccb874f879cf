#include "gpu/sample_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ktune {
namespace {

// P(B = i) for B ~ Binomial(n, 1/2), through logarithms: 2^-n underflows beyond n = 1074.
double binomial_half_pmf(size_t n, size_t i) {
  const double nd = static_cast<double>(n), id = static_cast<double>(i);
  return std::exp(std::lgamma(nd + 1) - std::lgamma(id + 1) - std::lgamma(nd - id + 1) - nd * std::log(2.0));
}

}  // namespace

double quantile_sorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) throw std::invalid_argument("quantile of no samples");
  const double position = std::clamp(p, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

std::optional<std::pair<size_t, size_t>> median_ci_ranks(size_t n, double confidence) {
  const double alpha = 1.0 - confidence;
  // Invariant: below = P(B <= k-1), so rank k (when k >= 1) has coverage 1 - 2*below.
  size_t k = 0;
  double below = 0;
  while (2 * k + 1 <= n) {
    const double next = below + binomial_half_pmf(n, k);
    if (2 * next > alpha) break;
    below = next;
    ++k;
  }
  if (k == 0) return std::nullopt;
  return std::make_pair(k, n + 1 - k);
}

double median_notch(double iqr, double count) { return count > 0 ? 1.58 * iqr / std::sqrt(count) : 0.0; }

double SampleSummary::ci_halfwidth() const {
  if (!median_ci) return std::numeric_limits<double>::infinity();
  return std::max(median - median_ci->first, median_ci->second - median);
}

SampleSummary summarize(std::vector<double> samples, double confidence) {
  std::sort(samples.begin(), samples.end());
  SampleSummary s;
  s.count = samples.size();
  s.median = quantile_sorted(samples, 0.5);
  s.q1 = quantile_sorted(samples, 0.25);
  s.q3 = quantile_sorted(samples, 0.75);
  if (auto ranks = median_ci_ranks(samples.size(), confidence)) {
    s.median_ci = std::make_pair(samples[ranks->first - 1], samples[ranks->second - 1]);
  }
  return s;
}

}  // namespace ktune
