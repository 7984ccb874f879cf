// The first model's chain of one expansion (the dependent round trips of its slowest lane),
// worked out by hand for a frontier of 100 vertices: one hub of 1000 edges and 99 of one edge.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/graph/expansion_work.h"

namespace ktune {
namespace {

constexpr int kThread = 0, kWarp = 1, kBlock = 2, kSegment = 3, kTile = 4;  // graph_expand.cuh's BALANCE_
const Frontier kHubAndLeaves{100, 1000 + 99, 1000};

double chain(int balance, int32_t block, int32_t coarsen, int32_t round_trips = 1) {
  return expansion_chain_round_trips({balance, block, coarsen, 1, round_trips}, kHubAndLeaves);
}

// The hub's thread walks its 1000 edges alone after its own three trips (queue entry, row bounds,
// first edge's index); a warp takes them 32 at a time, a block of 256 in 4 rounds.
TEST(ExpansionChain, TheLaneHoldingTheHubWalksItsRow) {
  EXPECT_DOUBLE_EQ(chain(kThread, 256, 1), 3 + 1000);
  EXPECT_DOUBLE_EQ(chain(kThread, 256, 1, 2), 3 + 2 * 1000);
  EXPECT_DOUBLE_EQ(chain(kWarp, 256, 1), 3 + 32);
  EXPECT_DOUBLE_EQ(chain(kBlock, 256, 1), 3 + 1 + 4);
}

// A thread holds `coarsen` vertices a block apart: with 100 vertices and blocks of 32, the
// hub's thread holds up to two more vertices (of the mean's 11 edges) after it; with blocks of
// 256 every vertex has its own thread, however coarse.
TEST(ExpansionChain, CoarseningLengthensAChainOnlyWhereTheFrontierFillsATile) {
  const double mean = 1099.0 / 100;
  EXPECT_DOUBLE_EQ(chain(kThread, 32, 4), 4 * 3 + 1000 + 3 * mean);
  EXPECT_DOUBLE_EQ(chain(kThread, 256, 4), chain(kThread, 256, 1));
}

// The schedules that share out edges spread the hub's over their group: a segment's 32 lanes in
// 32 rounds, each a binary search of log2(32) / 4 more; the tile, shrunk to one vertex a block
// on so small a frontier, over 256 lanes in 4 rounds of 1 + log2(256) / 4.
TEST(ExpansionChain, SharedSchedulesSpreadTheHubOverTheirGroup) {
  EXPECT_DOUBLE_EQ(chain(kSegment, 256, 1), 3 + 32 * (1 + 5.0 / 4));
  EXPECT_DOUBLE_EQ(chain(kTile, 256, 1), 3 + 4 * (1 + 8.0 / 4));
  EXPECT_DOUBLE_EQ(expansion_chain_round_trips({kTile, 256, 1}, Frontier{}), 0);
}

// The device loop runs one wave of blocks (2048 threads on each of 132 SMs), which take the tiles
// in turn: a frontier of a million one-edge vertices, a block of 256 taking one vertex, is 1056
// blocks' 947 tiles each, the slowest block the hub's and 946 more of the mean's (3 + 1 rounds).
TEST(ExpansionChain, ALaneGoesOnToItsNextTileWhereTheFrontierOutnumbersTheWave) {
  const Frontier many{1000000, 1000000 - 1 + 1000, 1000};
  const double mean = static_cast<double>(many.edges) / static_cast<double>(many.items);
  const double turns = std::ceil(1000000.0 / 1056);
  EXPECT_DOUBLE_EQ(expansion_chain_round_trips({kBlock, 256, 1, 1, 1}, many),
                   3 + 1 + 4 + (turns - 1) * (3 + 1 + std::ceil(mean / 256)));
  // A thread a vertex: 1056 blocks of 256 threads hold 270 K of them, so each thread takes four.
  const double thread_turns = std::ceil(std::ceil(1000000.0 / 256) / 1056);
  EXPECT_DOUBLE_EQ(expansion_chain_round_trips({kThread, 256, 1, 1, 1}, many),
                   3 + 1000 + (thread_turns - 1) * (3 + mean));
}

}  // namespace
}  // namespace ktune
