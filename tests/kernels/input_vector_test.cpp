#include "kernels/input_vector.h"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

namespace ktune {
namespace {

TEST(InputVector, ValuesInRangeAndExactInFloat) {
  const std::vector<double> x = deterministic_input_vector(10000);
  ASSERT_EQ(x.size(), 10000u);
  for (double v : x) {
    EXPECT_GE(v, 0.5);
    EXPECT_LT(v, 1.5);
    EXPECT_EQ(static_cast<double>(static_cast<float>(v)), v);
  }
}

TEST(InputVector, SameSequenceEveryTimeWhateverTheLength) {
  const std::vector<double> shorter = deterministic_input_vector(100);
  const std::vector<double> longer = deterministic_input_vector(1000);
  EXPECT_EQ(shorter, deterministic_input_vector(100));
  EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
  EXPECT_TRUE(deterministic_input_vector(0).empty());
}

// A kernel that ignores x or mixes up its entries must give a different answer: x has to vary.
TEST(InputVector, SpreadsOverItsRange) {
  const std::vector<double> x = deterministic_input_vector(10000);
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  EXPECT_NEAR(mean, 1.0, 0.02);
  EXPECT_GT(std::set<double>(x.begin(), x.end()).size(), 9900u);
}

}  // namespace
}  // namespace ktune
