// The accuracy harness's ranking measures (bench/ranking_metrics.h).
#include "bench/ranking_metrics.h"

#include <gtest/gtest.h>

namespace ktune::bench {
namespace {

TEST(RankingMetrics, SpearmanIsOneInOrderMinusOneReversedAndSharesTiedRanks) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  EXPECT_EQ(ranks({3, 1, 3, 2}), (std::vector<double>{3.5, 1, 3.5, 2}));
  EXPECT_DOUBLE_EQ(spearman({1, 1, 1}, {1, 2, 3}), 0.0);  // no order to correlate
}

// gemat12-like: two configurations share the least time, a third is one tick (32 ns) above it,
// a fourth three ticks above.
TEST(RankingMetrics, ConfigurationsWithinOneTimerTickOfTheLeastTimeAreAllTheBest) {
  const std::vector<double> measured = {5.024, 4.928, 4.928, 4.960, 6.0};
  const std::vector<double> predicted = {2.0, 4.0, 3.0, 1.0, 5.0};  // order: 3, 0, 2, 1, 4
  const BestRank r = best_rank(measured, predicted);
  EXPECT_EQ(r.best, 1u);  // the first least time in the truth's order
  EXPECT_EQ(r.strict_rank, 4u);
  EXPECT_EQ(r.co_best, 3u);       // 1, 2 and 3
  EXPECT_EQ(r.co_best_rank, 1u);  // configuration 3, predicted first
}

TEST(RankingMetrics, HalfATickMoreIsNotATie) {
  const std::vector<double> measured = {4.976, 4.928};
  const BestRank r = best_rank(measured, {1.0, 2.0});
  EXPECT_EQ(r.co_best, 1u);
  EXPECT_EQ(r.strict_rank, 2u);
  EXPECT_EQ(r.co_best_rank, 2u);
}

// A noisy best (IQR 0.1 µs over 16 runs: a notch of 0.0395 µs) is tied with a noisy median
// 72 ns above it, but not with a steady one 172 ns above it.
TEST(RankingMetrics, MediansWhoseNotchesOverlapTheBestsAreAllTheBest) {
  const std::vector<double> measured = {5.1, 4.928, 5.0};
  const std::vector<double> uncertainty = {median_uncertainty_us(0.0, 16), median_uncertainty_us(0.1, 16),
                                           median_uncertainty_us(0.1, 16)};
  EXPECT_DOUBLE_EQ(uncertainty[0], kTimerTickUs / 2);  // never narrower than the timer
  EXPECT_NEAR(uncertainty[1], 0.0395, 1e-12);
  const BestRank r = best_rank(measured, {1.0, 3.0, 2.0}, uncertainty);
  EXPECT_EQ(r.best, 1u);
  EXPECT_EQ(r.strict_rank, 3u);
  EXPECT_EQ(r.co_best, 2u);       // 1 and 2
  EXPECT_EQ(r.co_best_rank, 2u);  // configuration 2; configuration 0 is predicted first but slower
  // The same medians measured steadily (IQR 0) are 72 and 172 ns apart, more than a tick: no tie.
  const BestRank steady = best_rank(measured, {1.0, 3.0, 2.0}, {0.016, 0.016, 0.016});
  EXPECT_EQ(steady.co_best, 1u);
  EXPECT_EQ(steady.co_best_rank, 3u);
}

TEST(RankingMetrics, NoConfigurationsNoRank) {
  const BestRank r = best_rank({}, {});
  EXPECT_EQ(r.co_best, 0u);
  EXPECT_EQ(r.strict_rank, 0u);
}

}  // namespace
}  // namespace ktune::bench
