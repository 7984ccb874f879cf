#include "kernels/graph/expansion_work.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/graph/expand_tile.h"
#include "kernels/graph/wave.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

// Warp entries the estimate lists at most: a block per vertex of a large graph would otherwise
// list more warps than the graph has edges, and the first model's block scheduling walks every
// one. Beyond it, neighbouring blocks are merged into one: 2^16 warps are still hundreds of
// blocks per SM, enough for the imbalance a hub vertex makes to show.
constexpr int64_t kMaxWarps = int64_t{1} << 16;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

constexpr int kBalanceThread = 0, kBalanceWarp = 1, kBalanceBlock = 2, kBalanceSegment = 3;  // graph_expand.cuh's

// Issue time of one more edge in a thread's batch, in units of an L2 round trip: its search,
// loads and atomics are a few dozen instructions, which a round's waits mostly hide; a batch
// that a small frontier leaves half empty pays them all the same.
constexpr double kIssuePerBatchedEdge = 0.1;

// A vertex's item before its first edge: its queue entry, then its row bounds, then the edge's
// index, each waiting on the one before.
constexpr double kVertexRoundTrips = 3;

// Rounds of the lane a thread, warp or block schedule gives one vertex of `degree` edges: the
// vertex's own chain, then its row at the lane's width. A block's vertex costs one more: thread 0
// reads it, and barriers pass it around.
double vertex_lane_rounds(const ExpansionSchedule& c, double degree) {
  switch (c.balance) {
    case kBalanceThread: return kVertexRoundTrips + degree * c.round_trips;
    case kBalanceWarp: return kVertexRoundTrips + std::ceil(degree / 32) * c.round_trips;
    default: return kVertexRoundTrips + 1 + std::ceil(degree / c.block) * c.round_trips;
  }
}

// Rounds of a segment's or tile's group of lanes sharing out its vertices' `edges`: each edge
// found by a binary search over the group's slots, and a thread's batch of edges waiting on each
// link of its chain once.
double shared_group_rounds(const ExpansionSchedule& c, double group, double edges) {
  const double round = c.round_trips + std::log2(group * c.coarsen) / 4 + kIssuePerBatchedEdge * (c.batch - 1);
  return kVertexRoundTrips + std::ceil(edges / (group * c.batch)) * round;
}

ExpansionWork expansion_warp_work(const CsrF64& graph, const ExpansionSchedule& c, int32_t n) {
  ExpansionWork out;
  int64_t& blocks = out.blocks;
  const int64_t tile = expand_tile_items(c.balance, c.block, c.coarsen);
  const int64_t grid = std::max<int64_t>(1, ceil_div(n, tile));
  const int64_t warps_per_block = c.block / 32;
  const int64_t merge = ceil_div(grid * warps_per_block, kMaxWarps);
  blocks = ceil_div(grid, merge);
  const auto degree = [&](int64_t v) {
    return v < n ? static_cast<double>(out_degree(graph, static_cast<int32_t>(v))) : 0.0;
  };
  std::vector<double> work(static_cast<size_t>(blocks * warps_per_block), 0.0);
  std::vector<double> every_warp(static_cast<size_t>(blocks), 0.0);  // work all warps of a block share
  for (int64_t b = 0; b < grid; ++b) {
    double* warps = work.data() + (b / merge) * warps_per_block;
    const int64_t first = b * tile;
    switch (c.balance) {
      case kBalanceThread:
        for (int64_t k = 0; k < c.coarsen; ++k)
          for (int64_t w = 0; w < warps_per_block; ++w) {
            double longest = 0;
            for (int64_t lane = 0; lane < 32; ++lane)
              longest = std::max(longest, degree(first + k * c.block + w * 32 + lane));
            warps[w] += vertex_lane_rounds(c, longest);
          }
        break;
      case kBalanceWarp:
        for (int64_t k = 0; k < c.coarsen; ++k)
          for (int64_t w = 0; w < warps_per_block; ++w)
            warps[w] += vertex_lane_rounds(c, degree(first + k * warps_per_block + w));
        break;
      case kBalanceBlock:
        // A vertex costs the whole block its chain before any edge.
        for (int64_t k = 0; k < c.coarsen; ++k)
          every_warp[static_cast<size_t>(b / merge)] += vertex_lane_rounds(c, degree(first + k));
        break;
      case kBalanceSegment:
      default: {  // segment, tile
        // The group's edges evenly spread over its lanes.
        const int64_t group = c.balance == kBalanceSegment ? 32 : c.block;
        for (int64_t g = 0; g < c.block / group; ++g) {
          double edges = 0;
          for (int64_t i = 0; i < group * c.coarsen; ++i) edges += degree(first + g * group * c.coarsen + i);
          const double rounds = shared_group_rounds(c, static_cast<double>(group), edges);
          if (group == c.block) {
            every_warp[static_cast<size_t>(b / merge)] += rounds;
          } else {
            warps[g] += rounds;
          }
        }
        break;
      }
    }
  }
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t w = 0; w < warps_per_block; ++w)
      work[static_cast<size_t>(b * warps_per_block + w)] += every_warp[static_cast<size_t>(b)];
  out.warp_work.assign(work.begin(), work.end());
  return out;
}

}  // namespace

double expansion_chain_round_trips(const ExpansionSchedule& c, const Frontier& frontier) {
  if (frontier.items <= 0) return 0;
  const auto items = static_cast<double>(frontier.items), longest = static_cast<double>(frontier.longest);
  const double mean = static_cast<double>(frontier.edges) / items;
  // A lane (thread, warp or block) holds up to `coarsen` of a tile's vertices, one after
  // another; the slowest holds the longest row and mean ones after it. The device loop's one
  // wave of blocks takes the tiles in turn (block b: tiles b, b + grid, ...), so where the items
  // outnumber the wave's tiles a lane goes on to its next tile's vertices.
  const auto slowest_lane = [&](double lanes_per_tile) {
    const double k = std::min<double>(c.coarsen, std::ceil(items / lanes_per_tile));
    const double tiles = std::ceil(items / (lanes_per_tile * c.coarsen));
    const double turns = std::ceil(tiles / std::max(1.0, std::floor(kWaveThreads / c.block)));
    return vertex_lane_rounds(c, longest) + (k - 1 + (turns - 1) * c.coarsen) * vertex_lane_rounds(c, mean);
  };
  switch (c.balance) {
    case kBalanceThread: return slowest_lane(c.block);
    case kBalanceWarp: return slowest_lane(c.block / 32.0);
    case kBalanceBlock: return slowest_lane(1);
    case kBalanceSegment:
    default: {  // a group's vertices' edges spread over its lanes
      const double group = c.balance == kBalanceSegment ? 32 : c.block;
      // The tile schedule's tile shrinks until the device loop's one wave of blocks shares the
      // frontier (graph_expand.cuh's expand).
      const double tile = c.balance == kBalanceSegment
                              ? group * c.coarsen
                              : std::clamp(std::ceil(items * c.block / kWaveThreads), 1.0, group * c.coarsen);
      return shared_group_rounds(c, group, std::max(longest, std::min(items, tile) * mean));
    }
  }
}

std::shared_ptr<const ExpansionWork> expansion_work(const Workload& w, const ExpansionSchedule& schedule) {
  const std::string key = "graph.expansion " + std::to_string(schedule.balance) + " " + std::to_string(schedule.block) +
                          " " + std::to_string(schedule.coarsen) + " " + std::to_string(schedule.batch) + " " + std::to_string(schedule.round_trips);
  return w.derived.get<ExpansionWork>(key, [&] { return expansion_warp_work(w.matrix, schedule, vertex_count(w.matrix)); });
}

}  // namespace ktune
