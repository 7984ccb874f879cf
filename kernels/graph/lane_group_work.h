#pragma once
// The first model's work per warp of a graph edge pass spread as `lanes` threads per vertex
// (1: a thread per vertex, 32: a warp), each thread group taking `items` vertices block /
// lanes apart: a warp's work is, over its items, the loop trips of its slowest lane (the
// longest adjacency list among its vertices over the lanes) plus one per item. Shared by the
// connected-components and PageRank estimates. `in_flight`: loop trips whose loads a lane
// issues together (an unrolled loop whose trips do not depend on each other): a round waits on
// them once.
#include <cstdint>
#include <vector>

namespace ktune {

std::vector<float> lane_group_warp_work(const std::vector<int32_t>& degrees, int32_t block, int32_t lanes,
                                         int32_t items, int64_t blocks, int32_t in_flight = 1);

}  // namespace ktune
