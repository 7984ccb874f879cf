// Union-find's passes in the device's rounds (kernels/cc/cc_contention.h): the swaps that
// queue on one root, on stars whose hub races every edge of a round or none, over one wave and
// several; the chains of failed swaps a mesh builds when every edge unites at once; the vertex
// schedule's rounds; the result still a union of every edge; and what the first cost model and
// the emulator charge for them.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/cc/cc_contention.h"
#include "kernels/cc/cc_family.h"
#include "kernels/cc/cc_edges.h"
#include "kernels/cc/cc_estimate.h"
#include "tests/kernels/graph_cases.h"

namespace ktune {
namespace {

namespace graph_case = testing_support::graph_case;

struct Labels {
  std::vector<int32_t> label;
  explicit Labels(int32_t n) : label(static_cast<size_t>(n)) {
    for (int32_t v = 0; v < n; ++v) label[static_cast<size_t>(v)] = v;
  }
  int32_t operator[](int64_t v) const { return label[static_cast<size_t>(v)]; }
  void set(int64_t v, int32_t parent) { label[static_cast<size_t>(v)] = parent; }
  size_t size() const { return label.size(); }
};

UnionRounds unite(const CsrF64& graph, int64_t block, int64_t items, Labels* labels = nullptr) {
  const Workload w = graph_case::graph(graph);
  const std::shared_ptr<const CcEdgeList> edges = cc_edge_list(w);
  Labels own(graph.rows);
  Labels& l = labels ? *labels : own;
  return unite_in_rounds(l, entry_rows(*edges), entry_columns(*edges), edges->entries, block, items);
}

// A star whose hub has the largest id: every edge of the first round reaches the hub as the
// larger root, so all but one of them queue; once the hub hangs under a leaf, later rounds'
// edges reach their own leaves' roots and none queue.
TEST(UnionFindRounds, AHubOfTheLargestIdQueuesAllButOneEdgeOfItsRound) {
  const CsrF64 star = graph_case::star(1001);  // hub 1000, edges (v, 1000) for v < 1000
  for (int64_t block : {64, 1024}) {
    Labels labels(1001);
    const UnionRounds r = unite(star, block, 1, &labels);
    EXPECT_EQ(r.queued_swaps, 999) << block;
    EXPECT_EQ(r.unions, 1000) << block;
    for (int32_t v = 0; v <= 1000; ++v) EXPECT_EQ(find_label_root(labels, v), 0) << v;
  }
  // Two edges a thread, 64 threads a block: each block's 128 edges hold 64 of the first round,
  // eight blocks 512 of them (the last block's 104 edges too).
  EXPECT_EQ(unite(star, 64, 2).queued_swaps, 511);
}

// The same star with its hub at vertex 0: every edge's larger root is its own leaf.
TEST(UnionFindRounds, AHubOfTheSmallestIdQueuesNothing) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int32_t v = 1; v <= 1000; ++v) edges.emplace_back(0, v);
  const UnionRounds r = unite(graph_case::graph_of(1001, 1001, edges, true), 64, 1);
  EXPECT_EQ(r.queued_swaps, 0);
  EXPECT_EQ(r.unions, 1000);
}

// Only the threads of one wave race: a star of more edges than a wave queues the first wave's
// edges behind one another, and the later wave finds the hub already hung.
TEST(UnionFindRounds, AGridLargerThanAWaveRacesAWaveAtATime) {
  const auto wave = static_cast<int64_t>(kWaveThreads);
  EXPECT_EQ(unite(graph_case::star(static_cast<int32_t>(wave) + 30001), 1024, 1).queued_swaps, wave - 1);
}

// A 64 x 64 grid numbered row by row: each vertex's two lower neighbours are close in id, so a
// round of every edge at once hooks paths that its losing swaps then climb, one failure a step.
// Four edges a thread unite a quarter of them a round, on trees the earlier rounds flattened.
TEST(UnionFindRounds, AMeshUnitedAllAtOnceBuildsChainsThatFewerEdgesARoundAvoid) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  constexpr int32_t kSide = 64;
  for (int32_t r = 0; r < kSide; ++r)
    for (int32_t c = 0; c < kSide; ++c) {
      if (c + 1 < kSide) edges.emplace_back(r * kSide + c, r * kSide + c + 1);
      if (r + 1 < kSide) edges.emplace_back(r * kSide + c, (r + 1) * kSide + c);
    }
  const CsrF64 grid = graph_case::graph_of(kSide * kSide, kSide * kSide, edges, true);
  Labels labels(kSide * kSide);
  const UnionRounds all_at_once = unite(grid, 256, 1, &labels);
  const UnionRounds four_a_thread = unite(grid, 256, 4);
  EXPECT_GT(all_at_once.queued_swaps, 4) << "a queue of two on each vertex is one wait; chains are longer";
  EXPECT_LT(four_a_thread.queued_swaps, all_at_once.queued_swaps);
  EXPECT_EQ(all_at_once.unions, kSide * kSide - 1);
  EXPECT_EQ(four_a_thread.unions, kSide * kSide - 1);
  for (int32_t v = 0; v < kSide * kSide; ++v) EXPECT_EQ(find_label_root(labels, v), 0) << v;
}

// The vertex schedule takes each edge from its larger end: the star's hub (the largest id) holds
// every edge, its lanes take 32 of them a round, and the first round's 32 race for the hub.
// With one lane the hub's thread takes one edge a round: nothing waits.
TEST(UnionFindRounds, TheVertexScheduleRacesTheLanesOfAVertex) {
  const Workload w = graph_case::graph(graph_case::star(1001));
  const CcNeighbours n = cc_neighbours(w);
  const auto ints = [](const HostBytes& b) { return reinterpret_cast<const int32_t*>(b.data()); };
  const VertexLists<const int32_t*> lists{ints(n.out->row_ptr), ints(n.out->col_idx), ints(n.rest->row_ptr),
                                          ints(n.rest->col_idx)};
  for (int64_t lanes : {1, 32}) {
    Labels labels(1001);
    const UnionRounds r = unite_vertices_in_rounds(labels, lists, 1001, 256, lanes, 1);
    EXPECT_EQ(r.queued_swaps, lanes == 1 ? 0 : 31) << lanes;
    EXPECT_EQ(r.unions, 1000) << lanes;
    for (int32_t v = 0; v <= 1000; ++v) EXPECT_EQ(find_label_root(labels, v), 0) << v;
  }
}

// The first model's count for every union-find schedule, and the estimate carrying it.
TEST(UnionFindRounds, TheEstimateCarriesTheWaitsOfItsSchedule) {
  const Workload w = graph_case::graph(graph_case::star(1001));
  const auto waits = union_find_waits(w);
  EXPECT_EQ(waits.at({CcSchedule::Edge, 64, 1, 1}).queued_swaps, 999);
  EXPECT_EQ(waits.at({CcSchedule::Edge, 64, 1, 2}).queued_swaps, 511);
  EXPECT_EQ(waits.at({CcSchedule::Edge, 1024, 1, 4}).queued_swaps, 999);  // every edge in its first round
  EXPECT_EQ(waits.at({CcSchedule::Vertex, kVertexRoundsBlock, 32, 1}).queued_swaps, 31);
  const CcFamily cc;
  Config c = {{"algorithm", static_cast<int64_t>(CcAlgorithm::UnionFind)},
              {"schedule", static_cast<int64_t>(CcSchedule::Edge)},
              {"block", 64}, {"lanes", 1}, {"items", 2}, {"jumps", 0}};
  const WorkEstimate two_a_thread = cc.estimate(w, Problem::of(Dtype::I32), c);
  EXPECT_EQ(two_a_thread.queued_swaps, 511);
  // Each of the first round's 511 losers fails on the hub at least once: a sector's request each
  // on top of the estimate's finds.
  const int64_t failed = waits.at({CcSchedule::Edge, 64, 1, 2}).failed_swaps;
  EXPECT_GE(failed, 511);
  const WorkEstimate without_rounds = estimate_cc(cc_graph_digest(w), CcConfig::from(c));
  EXPECT_DOUBLE_EQ(two_a_thread.gather_bytes - without_rounds.gather_bytes, 32.0 * static_cast<double>(failed));
  EXPECT_DOUBLE_EQ(two_a_thread.dram_bytes - without_rounds.dram_bytes, 32.0 * static_cast<double>(failed));
  c["schedule"] = static_cast<int64_t>(CcSchedule::Vertex);
  c["lanes"] = 32;
  c["items"] = 1;
  c["block"] = 1024;  // counted at kVertexRoundsBlock whatever the block
  EXPECT_EQ(cc.estimate(w, Problem::of(Dtype::I32), c).queued_swaps, 31);
  c["schedule"] = static_cast<int64_t>(CcSchedule::Edge);
  c["lanes"] = 1;
  c["algorithm"] = static_cast<int64_t>(CcAlgorithm::LabelPropagation);
  EXPECT_EQ(cc.estimate(w, Problem::of(Dtype::I32), c).queued_swaps, 0);
}

}  // namespace
}  // namespace ktune
