#pragma once
// Statistics of repeated timings: median, quartiles, and a distribution-free confidence
// interval of the median. Kernel times are skewed (clock ramps, interference, a slow first
// run), so nothing here assumes normality.
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace ktune {

// The p-quantile (0 <= p <= 1) of sorted samples, interpolating linearly between order
// statistics (Hyndman-Fan type 7, numpy's default). Needs at least one sample.
double quantile_sorted(const std::vector<double>& sorted, double p);

// 1-based ranks (lo, hi) of the order statistics bounding the median with at least
// `confidence` coverage. The number of samples below the median is Binomial(n, 1/2), so
// [x(k), x(n+1-k)] covers it with probability 1 - 2 P(B <= k-1); k is the largest rank
// keeping that at or above `confidence`. None when even [x(1), x(n)] falls short (n < 6
// at 95%).
std::optional<std::pair<size_t, size_t>> median_ci_ranks(size_t n, double confidence = 0.95);

// McGill, Tukey and Larsen's notch about the median of `count` samples whose interquartile
// range is `iqr`: 1.58 IQR / sqrt(count). Two medians whose notches do not overlap differ at
// about 95%. 0 without samples.
double median_notch(double iqr, double count);

struct SampleSummary {
  size_t count = 0;
  double median = 0, q1 = 0, q3 = 0;
  std::optional<std::pair<double, double>> median_ci;  // none with too few samples

  double iqr() const { return q3 - q1; }
  // The interval is not symmetric about the median; its longer side is the half-width
  // the stopping rule compares with. Infinite without an interval.
  double ci_halfwidth() const;
};

// Needs at least one sample.
SampleSummary summarize(std::vector<double> samples, double confidence = 0.95);

}  // namespace ktune
