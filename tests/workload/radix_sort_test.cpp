#include "workload/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace ktune {
namespace {

TEST(RadixSort, MatchesStdSort) {
  std::mt19937_64 rng(5);
  for (int key_bits : {1, 8, 13, 44, 64}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{3} << 20}) {
      std::vector<uint64_t> keys(n);
      const uint64_t mask = key_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << key_bits) - 1;
      for (auto& k : keys) k = rng() & mask;
      std::vector<uint64_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      radix_sort(keys, key_bits);
      EXPECT_EQ(keys, expected) << key_bits << " bits, " << n << " keys";
    }
  }
}

TEST(RadixSort, SkipsDigitsAllKeysShare) {
  std::vector<uint64_t> keys = {0x500, 0x300, 0x700, 0x100};  // low byte shared (zero)
  radix_sort(keys, 16);
  EXPECT_EQ(keys, (std::vector<uint64_t>{0x100, 0x300, 0x500, 0x700}));
}

}  // namespace
}  // namespace ktune
