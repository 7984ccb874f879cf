#include "model/emulator/block_sampling.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "workload/input_error.h"

namespace ktune {
namespace {

std::vector<double> weights(size_t n) {
  std::vector<double> w(n);
  for (size_t i = 0; i < n; ++i) w[i] = static_cast<double>((i * 37) % 101);
  return w;
}

TEST(BlockSampling, TakesTheHeaviestAndADeterministicRandomRest) {
  std::vector<double> w = weights(5000);
  w[4321] = 1e6;
  w[17] = 1e5;
  const SamplePlan plan{3, 5, 42};
  const std::vector<int64_t> a = choose_sample_blocks(w, plan);
  EXPECT_EQ(a, choose_sample_blocks(w, plan));  // same input, same blocks
  ASSERT_EQ(a.size(), 8u);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(std::adjacent_find(a.begin(), a.end()), a.end());  // distinct
  EXPECT_TRUE(std::binary_search(a.begin(), a.end(), 4321));
  EXPECT_TRUE(std::binary_search(a.begin(), a.end(), 17));
  // The third heaviest is the first block of weight 100 (ties go to the lower index).
  const int64_t third = std::find(w.begin(), w.end(), 100.0) - w.begin();
  EXPECT_TRUE(std::binary_search(a.begin(), a.end(), third));
  EXPECT_NE(a, choose_sample_blocks(w, {3, 5, 43}));  // another seed, another random part
}

TEST(BlockSampling, RandomPicksComeInRunsOfAdjacentBlocks) {
  const std::vector<double> w(100000, 1.0);
  for (int run : {1, 2, 4}) {
    const std::vector<int64_t> a = choose_sample_blocks(w, {0, 8, 7, run});
    ASSERT_EQ(a.size(), 8u) << run;
    EXPECT_EQ(std::adjacent_find(a.begin(), a.end()), a.end());
    // In a grid this large random starts are almost never adjacent: the blocks with a
    // successor in the sample are those inside runs.
    int with_successor = 0;
    for (size_t i = 0; i + 1 < a.size(); ++i) with_successor += a[i + 1] == a[i] + 1;
    EXPECT_EQ(with_successor, 8 - 8 / run) << run;
  }
  // A run stops at the grid's end and never repeats a heavy block.
  std::vector<double> edge(50, 1.0);
  edge[49] = 9;
  const std::vector<int64_t> e = choose_sample_blocks(edge, {1, 40, 3, 8});
  EXPECT_EQ(e.size(), 41u);
  EXPECT_EQ(std::adjacent_find(e.begin(), e.end()), e.end());
  EXPECT_EQ(e.back(), 49);
}

// A block that reads little can still run long (its longest thread alone): with spans the
// longest ones join the heaviest, which weight alone would never pick; without them nothing
// changes.
TEST(BlockSampling, SpansAddTheLongestRunningBlocks) {
  std::vector<double> w = weights(5000);
  w[4321] = 1e6;
  std::vector<double> spans(w.size(), 1.0);
  spans[10] = 500;
  spans[4321] = 900;  // already in as the heaviest: the next longest comes instead
  spans[2999] = 400;
  spans[3000] = 400;  // a tie with 2999: the lower index wins
  const SamplePlan plan{1, 4, 42, 2, 2};
  const std::vector<int64_t> a = choose_sample_blocks(w, plan, spans);
  ASSERT_EQ(a.size(), 7u);
  EXPECT_EQ(std::adjacent_find(a.begin(), a.end()), a.end());
  for (int64_t b : {4321, 10, 2999}) EXPECT_TRUE(std::binary_search(a.begin(), a.end(), b)) << b;
  EXPECT_EQ(choose_sample_blocks(w, plan), choose_sample_blocks(w, plan, {}));
  EXPECT_EQ(choose_sample_blocks(w, plan).size(), 5u);
  EXPECT_THROW(choose_sample_blocks(w, plan, std::vector<double>(10, 1.0)), InputError);
  EXPECT_THROW(choose_sample_blocks(w, {1, 4, 42, 2, -1}, spans), InputError);
}

TEST(BlockSampling, TakesEveryBlockOfASmallGrid) {
  EXPECT_EQ(choose_sample_blocks(weights(5), {4, 4, 1}), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(choose_sample_blocks({}, {4, 4, 1}).empty());
  EXPECT_THROW(choose_sample_blocks(weights(5), {-1, 4, 1}), InputError);
}

}  // namespace
}  // namespace ktune
