// Union-find's edge pass in the device's rounds (kernels/cc/cc_contention.h): the swaps that
// queue on one root, on stars whose hub races every edge of a round or none, over one wave and
// several; the result still a union of every edge; and what the first cost model and the
// emulator charge for them.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/cc/cc_contention.h"
#include "kernels/cc/cc_family.h"
#include "kernels/cc/cc_edges.h"
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

// The first model's count for every (block, items), and the estimate of union-find's edge
// schedule carrying it (the vertex schedule takes a vertex's lower edges with its own lanes: no
// race is counted there).
TEST(UnionFindRounds, TheEstimateCarriesTheQueueOfItsBlockAndItems) {
  const Workload w = graph_case::graph(graph_case::star(1001));
  const auto queued = union_find_queued_swaps(*cc_edge_list(w), 1001);
  EXPECT_EQ(queued.at({64, 1}), 999);
  EXPECT_EQ(queued.at({64, 2}), 511);
  EXPECT_EQ(queued.at({1024, 4}), 999);  // one block holds every edge in its first round
  const CcFamily cc;
  Config c = {{"algorithm", static_cast<int64_t>(CcAlgorithm::UnionFind)},
              {"schedule", static_cast<int64_t>(CcSchedule::Edge)},
              {"block", 64}, {"lanes", 1}, {"items", 2}, {"jumps", 0}};
  EXPECT_EQ(cc.estimate(w, Problem::of(Dtype::I32), c).queued_swaps, 511);
  c["schedule"] = static_cast<int64_t>(CcSchedule::Vertex);
  EXPECT_EQ(cc.estimate(w, Problem::of(Dtype::I32), c).queued_swaps, 0);
  c["schedule"] = static_cast<int64_t>(CcSchedule::Edge);
  c["algorithm"] = static_cast<int64_t>(CcAlgorithm::LabelPropagation);
  EXPECT_EQ(cc.estimate(w, Problem::of(Dtype::I32), c).queued_swaps, 0);
}

}  // namespace
}  // namespace ktune
