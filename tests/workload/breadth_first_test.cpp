#include "workload/breadth_first.h"

#include <gtest/gtest.h>

#include "workload/edge_list.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

CsrF64 edges(std::string_view text) { return parse_edge_list(text, ReadLimits{}, false); }

TEST(BreadthFirst, FollowsOutEdgesLevelByLevel) {
  // 0 → 1 → 3, 0 → 2 → 3, 3 → 4; 5 → 0 is never followed from 0.
  const CsrF64 g = edges("0 1\n0 2\n1 3\n2 3\n3 4\n5 0\n");
  const BreadthFirst bfs = breadth_first(g, 0);
  EXPECT_EQ(bfs.depth, (std::vector<int32_t>{0, 1, 1, 2, 3, -1}));
  // 3 is reached first from 1, the earlier of the two in the queue.
  EXPECT_EQ(bfs.parent, (std::vector<int32_t>{0, 0, 0, 1, 3, -1}));
  EXPECT_EQ(bfs.level_sizes, (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(bfs.edges_scanned, 5);
}

TEST(BreadthFirst, VerticesPastTheLastRowHaveNoOutEdges) {
  CsrF64 g{2, 4, {0, 1, 2}, {1, 3}, {1, 1}};  // 0 → 1, 1 → 3; vertices 2 and 3 have no rows
  EXPECT_EQ(vertex_count(g), 4);
  EXPECT_EQ(out_degree(g, 3), 0);
  EXPECT_EQ(breadth_first(g, 0).depth, (std::vector<int32_t>{0, 1, -1, 2}));
  EXPECT_EQ(breadth_first(g, 3).depth, (std::vector<int32_t>{-1, -1, -1, 0}));
}

TEST(BreadthFirst, RefusesASourceBeyondTheGraph) {
  const CsrF64 g = edges("0 1\n");
  EXPECT_THROW(breadth_first(g, 2), InputError);
  EXPECT_THROW(breadth_first(g, -1), InputError);
}

}  // namespace
}  // namespace ktune
