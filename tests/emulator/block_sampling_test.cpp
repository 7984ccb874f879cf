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

TEST(BlockSampling, TakesEveryBlockOfASmallGrid) {
  EXPECT_EQ(choose_sample_blocks(weights(5), {4, 4, 1}), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(choose_sample_blocks({}, {4, 4, 1}).empty());
  EXPECT_THROW(choose_sample_blocks(weights(5), {-1, 4, 1}), InputError);
}

}  // namespace
}  // namespace ktune
