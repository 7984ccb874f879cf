#include "workload/graph_sources.h"

#include <gtest/gtest.h>

#include <set>

#include "workload/breadth_first.h"
#include "workload/edge_list.h"
#include "workload/generators.h"

namespace ktune {
namespace {

TEST(SeededSources, DistinctVerticesWithOutEdgesTheSameEveryTime) {
  const CsrF64 g = generate_rmat(10, 4, 3);
  const std::vector<int32_t> sources = seeded_sources(g, 8);
  ASSERT_EQ(sources.size(), 8u);
  EXPECT_EQ(std::set<int32_t>(sources.begin(), sources.end()).size(), 8u);
  for (int32_t s : sources) EXPECT_GT(out_degree(g, s), 0) << s;
  EXPECT_EQ(seeded_sources(g, 8), sources);
  // Fewer asked: the first of the same draw.
  EXPECT_EQ(seeded_sources(g, 3), std::vector<int32_t>(sources.begin(), sources.begin() + 3));
}

TEST(SeededSources, FewerWhenFewVerticesHaveOutEdges) {
  // A star whose edges all leave the hub: only the hub can start a traversal.
  const CsrF64 star = parse_edge_list(std::string_view("7 0\n7 1\n7 2\n7 3\n"), ReadLimits{}, false);
  EXPECT_EQ(seeded_sources(star, 4), std::vector<int32_t>{7});
  EXPECT_TRUE(seeded_sources(CsrF64{5, 5, {0, 0, 0, 0, 0, 0}, {}, {}}, 4).empty());
  EXPECT_TRUE(seeded_sources(CsrF64{0, 0, {0}, {}, {}}, 4).empty());
}

}  // namespace
}  // namespace ktune
