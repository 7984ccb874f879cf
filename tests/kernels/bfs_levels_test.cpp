// The host's BFS levels (what the first model charges a BFS configuration for) against counts
// worked out by hand on a star with a tail: 0 - {1, 2, 3}, 3 - 4, undirected.
#include "kernels/bfs/bfs_levels.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "kernels/graph/graph_transpose.h"
#include "tests/kernels/sssp_graphs.h"

namespace ktune {
namespace {

CsrF64 star_with_tail() {
  return testing_support::sssp_case::weighted(5, {{0, 1, 1.0}, {0, 2, 1.0}, {0, 3, 1.0}, {3, 4, 1.0}}, true);
}

std::vector<BfsLevel> levels_of(const CsrF64& g, int32_t source) {
  const CsrF64 in = transpose_graph(g);
  return follow_bfs_levels(g, in.row_ptr.data(), in.col_idx.data(), source);
}

using Counts = std::vector<std::pair<int64_t, int64_t>>;

// Each level's frontier and the out-edges pushing it scans.
Counts pushes(const std::vector<BfsLevel>& levels) {
  Counts out;
  for (const BfsLevel& l : levels) out.emplace_back(l.frontier, l.frontier_edges);
  return out;
}

// What a pull at each level scans: whole, and up to each vertex's first parent.
Counts pulls(const std::vector<BfsLevel>& levels) {
  Counts out;
  for (const BfsLevel& l : levels) out.emplace_back(l.pull_edges_whole, l.pull_edges_first);
  return out;
}

TEST(BfsLevels, FrontiersAndTheEdgesTheyPush) {
  EXPECT_EQ(pushes(levels_of(star_with_tail(), 0)), (Counts{{1, 3}, {3, 1 + 1 + 2}, {1, 1}}));
}

// A pull at level 0 reads vertices 1-4: whole, their in-degrees 1 + 1 + 2 + 1; stopping at the
// first parent, 1, 2 and 3 find 0 first (one edge each) and 4, not a neighbour of 0, reads its
// one edge. At level 1 only 4 is left: its one in-edge, to 3, is its parent.
TEST(BfsLevels, WhatAPullWouldScanAtEachLevel) {
  EXPECT_EQ(pulls(levels_of(star_with_tail(), 0)), (Counts{{5, 4}, {1, 1}, {0, 0}}));
}

// The longest rows a level's lane waits on: pushing level 0 the centre's three edges, level 1
// vertex 3's two (to 0 and 4), level 2 vertex 4's one; a pull at level 0 may scan vertex 3's two
// in-edges, at level 1 vertex 4's one, at level 2 nothing (no vertex is deeper).
TEST(BfsLevels, TheLongestRowEachWayAtEachLevel) {
  Counts longest;
  for (const BfsLevel& l : levels_of(star_with_tail(), 0)) longest.emplace_back(l.longest_push, l.longest_pull);
  EXPECT_EQ(longest, (Counts{{3, 2}, {2, 1}, {1, 0}}));
}

// Two components, 0 - 1 and 2 - 3: from 0, vertices 2 and 3 are never reached, and every pull reads
// their in-edges whole. A source outside the graph has no levels.
TEST(BfsLevels, UnreachedVerticesAreReadByEveryPull) {
  const CsrF64 g = testing_support::sssp_case::weighted(4, {{0, 1, 1.0}, {2, 3, 1.0}}, true);
  // Vertex 1 and the never reached 2 and 3 at level 0 (vertex 1's one edge leads to its parent).
  EXPECT_EQ(pulls(levels_of(g, 0)), (Counts{{1 + 2, 1 + 2}, {2, 2}}));
  EXPECT_TRUE(levels_of(g, 9).empty());
}

}  // namespace
}  // namespace ktune
