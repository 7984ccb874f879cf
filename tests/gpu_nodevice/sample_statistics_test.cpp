#include "gpu/sample_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace ktune {
namespace {

TEST(SampleStatistics, QuantilesInterpolateLikeNumpy) {
  // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) == [1.75, 2.5, 3.25]
  const std::vector<double> sorted = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 0.0), 1);
  EXPECT_DOUBLE_EQ(quantile_sorted(sorted, 1.0), 4);
  EXPECT_DOUBLE_EQ(quantile_sorted({7}, 0.3), 7);
  EXPECT_THROW(quantile_sorted({}, 0.5), std::invalid_argument);
}

TEST(SampleStatistics, SummaryOfUnsortedSamples) {
  // Sorted: 1 2 3 4 5 6 7 100; median (4+5)/2; q1 at position 1.75, q3 at 5.25.
  const SampleSummary s = summarize({7, 100, 3, 1, 5, 2, 6, 4});
  EXPECT_EQ(s.count, 8u);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.q1, 2.75);
  EXPECT_DOUBLE_EQ(s.q3, 6.25);
  EXPECT_DOUBLE_EQ(s.iqr(), 3.5);
  // n = 8: 2 P(B <= 0) = 2/256 <= 0.05 < 2 P(B <= 1) = 18/256, so the CI is [x(1), x(8)].
  ASSERT_TRUE(s.median_ci.has_value());
  EXPECT_DOUBLE_EQ(s.median_ci->first, 1);
  EXPECT_DOUBLE_EQ(s.median_ci->second, 100);
  EXPECT_DOUBLE_EQ(s.ci_halfwidth(), 95.5);
}

TEST(SampleStatistics, MedianRanksFromTables) {
  // Classic 95% ranks for the median: n=6 -> (1,6), n=10 -> (2,9), n=20 -> (6,15), n=100 -> (40,61).
  EXPECT_FALSE(median_ci_ranks(5).has_value());  // 2/32 > 0.05: even the extremes fall short
  EXPECT_EQ(median_ci_ranks(6), std::make_pair(size_t{1}, size_t{6}));
  EXPECT_EQ(median_ci_ranks(10), std::make_pair(size_t{2}, size_t{9}));
  EXPECT_EQ(median_ci_ranks(20), std::make_pair(size_t{6}, size_t{15}));
  EXPECT_EQ(median_ci_ranks(100), std::make_pair(size_t{40}, size_t{61}));
  EXPECT_EQ(median_ci_ranks(10, 0.99), std::make_pair(size_t{1}, size_t{10}));
}

TEST(SampleStatistics, MedianRanksMatchExactBinomialCounts) {
  // Independent: exact integer binomial sums, searching down from the middle.
  for (uint64_t n = 1; n <= 60; ++n) {
    std::vector<uint64_t> choose(n + 1, 1);
    for (uint64_t i = 1; i <= n; ++i) choose[i] = choose[i - 1] * (n - i + 1) / i;
    const long double total = std::ldexp(1.0L, static_cast<int>(n));
    size_t expected = 0;
    for (size_t k = (n + 1) / 2; k >= 1 && expected == 0; --k) {
      uint64_t below = 0;  // C(n,0) + ... + C(n,k-1)
      for (size_t i = 0; i < k; ++i) below += choose[i];
      if (2.0L * static_cast<long double>(below) <= 0.05L * total) expected = k;
    }
    const auto ranks = median_ci_ranks(n);
    if (expected == 0) {
      EXPECT_FALSE(ranks.has_value()) << "n=" << n;
    } else {
      ASSERT_TRUE(ranks.has_value()) << "n=" << n;
      EXPECT_EQ(ranks->first, expected) << "n=" << n;
      EXPECT_EQ(ranks->second, n + 1 - expected) << "n=" << n;
    }
  }
}

TEST(SampleStatistics, IntervalCoversTheMedianAsOftenAsPromised) {
  // Skewed (exponential) samples of size 30: the true median is ln 2.
  std::mt19937 rng(7);
  std::exponential_distribution<double> dist(1.0);
  int covered = 0;
  const int trials = 4000;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> samples(30);
    for (double& x : samples) x = dist(rng);
    const SampleSummary s = summarize(samples);
    covered += s.median_ci->first <= std::log(2.0) && std::log(2.0) <= s.median_ci->second;
  }
  // Exact coverage for n=30 with ranks (10, 21) is 95.7%; allow sampling noise.
  EXPECT_GT(covered, trials * 0.94);
  EXPECT_LT(covered, trials * 0.975);
}

TEST(SampleStatistics, NoIntervalMeansInfiniteHalfwidth) {
  const SampleSummary s = summarize({3, 1, 2});
  EXPECT_DOUBLE_EQ(s.median, 2);
  EXPECT_FALSE(s.median_ci.has_value());
  EXPECT_TRUE(std::isinf(s.ci_halfwidth()));
}

TEST(SampleStatistics, LargeSamplesDoNotUnderflow) {
  // 2^-n underflows past n = 1074; the ranks must still follow n/2 -/+ 0.98 sqrt(n).
  const auto ranks = median_ci_ranks(5000);
  ASSERT_TRUE(ranks.has_value());
  EXPECT_NEAR(static_cast<double>(ranks->first), 2500 - 0.98 * std::sqrt(5000.0), 2.0);
  EXPECT_EQ(ranks->second, 5001 - ranks->first);
}

}  // namespace
}  // namespace ktune
