#pragma once
// The first model's work per warp of a graph edge pass spread as `lanes` threads per vertex
// (1: a thread per vertex, 32: a warp), each thread group taking `items` vertices block /
// lanes apart: a warp's work is, over its items, the loop trips of its slowest lane (the
// longest adjacency list among its vertices over the lanes) plus one per item. Shared by the
// connected-components and PageRank estimates.
#include <cstdint>
#include <vector>

namespace ktune {

std::vector<double> lane_group_warp_work(const std::vector<int32_t>& degrees, int32_t block, int32_t lanes,
                                         int32_t items, int64_t blocks);

}  // namespace ktune
