#include "kernels/graph/lane_group_work.h"

#include <algorithm>

namespace ktune {

namespace {
constexpr int64_t kWarpSize = 32;
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

std::vector<float> lane_group_warp_work(const std::vector<int32_t>& degrees, int32_t block, int32_t lanes,
                                         int32_t items, int64_t blocks, int32_t in_flight) {
  const auto n = static_cast<int64_t>(degrees.size());
  const int64_t groups = block / lanes;
  const int64_t groups_per_warp = std::min<int64_t>(kWarpSize / lanes, groups);
  const int64_t warps_per_block = ceil_div(block, kWarpSize);
  std::vector<float> work;
  work.reserve(static_cast<size_t>(blocks * warps_per_block));
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t w = 0; w < warps_per_block; ++w) {
      double trips = 0;
      for (int64_t k = 0; k < items; ++k) {
        int64_t longest = 0;
        for (int64_t g = w * groups_per_warp; g < (w + 1) * groups_per_warp; ++g) {
          const int64_t v = b * groups * items + g + k * groups;
          if (v < n) longest = std::max<int64_t>(longest, degrees[static_cast<size_t>(v)]);
        }
        trips += 1 + static_cast<double>(ceil_div(ceil_div(longest, lanes), in_flight));
      }
      work.push_back(static_cast<float>(trips));
    }
  return work;
}

}  // namespace ktune
