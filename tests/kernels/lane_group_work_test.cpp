// The first model's work per warp of a lane-group edge pass: the slowest lane's loop trips over
// a warp's vertices, one more per item, and fewer rounds where a lane's trips are independent.
#include "kernels/graph/lane_group_work.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

TEST(LaneGroupWork, AWarpWaitsForItsLongestListAndIndependentTripsShareARound) {
  // One warp of 32 single-lane groups: 31 vertices of degree 1 and one of 64.
  std::vector<int32_t> degrees(32, 1);
  degrees[5] = 64;
  EXPECT_EQ(lane_group_warp_work(degrees, 32, 1, 1, 1), std::vector<float>{1 + 64});
  EXPECT_EQ(lane_group_warp_work(degrees, 32, 1, 1, 1, 4), std::vector<float>{1 + 16});
  // Eight lanes a vertex: four vertices a warp (the long list is the second warp's), eight
  // rounds for it (two with four in flight), one for a warp of degree-1 vertices.
  const std::vector<float> eight = lane_group_warp_work(degrees, 32, 8, 1, 8);
  EXPECT_EQ(eight[0], 1 + 1);
  EXPECT_EQ(eight[1], 1 + 8);
  EXPECT_EQ(lane_group_warp_work(degrees, 32, 8, 1, 8, 4)[1], 1 + 2);
}

}  // namespace
}  // namespace ktune
