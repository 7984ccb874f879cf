// The host's walk of SSSP's passes (what the first model charges) against counts worked out by
// hand on graphs small enough to follow: a path, and a heavy edge that a light detour beats.
#include "kernels/sssp/sssp_passes.h"

#include <gtest/gtest.h>

#include "tests/kernels/sssp_graphs.h"

namespace ktune {
namespace {

using testing_support::sssp_case::file_weights;
using testing_support::sssp_case::weighted;

// 0 -> 1 -> ... -> k, weight 1 each.
CsrF64 unit_path(int32_t k) {
  std::vector<std::tuple<int32_t, int32_t, double>> edges;
  for (int32_t v = 0; v < k; ++v) edges.emplace_back(v, v + 1, 1.0);
  return weighted(k + 1, edges, false);
}

// A pass per edge and one that finds nothing to relax.
TEST(SsspPasses, BellmanFordRelaxesAPathOnceAPass) {
  const int32_t k = 9;
  const CsrF64 g = unit_path(k);
  const SsspPassWork w = follow_sssp_passes(g, file_weights(g), 0, 0);
  EXPECT_EQ(w.passes, k + 1);
  EXPECT_EQ(w.sweeps, 0);
  EXPECT_EQ(w.edges, k);
  EXPECT_EQ(w.queued, k + 1);
  // Each pass's queue: one vertex and its one edge; the last, vertex k, has none.
  ASSERT_EQ(w.frontiers.size(), static_cast<size_t>(k + 1));
  for (int32_t pass = 0; pass < k; ++pass) {
    EXPECT_EQ(w.frontiers[static_cast<size_t>(pass)].items, 1);
    EXPECT_EQ(w.frontiers[static_cast<size_t>(pass)].edges, 1);
    EXPECT_EQ(w.frontiers[static_cast<size_t>(pass)].longest, 1);
  }
  EXPECT_EQ(w.frontiers.back().edges, 0);
  EXPECT_EQ(w.frontiers.back().longest, 0);
}

// 0 -> 1 (1), 0 -> 2 (10), 1 -> 2 (1), 2 -> 3 (1).
CsrF64 heavy_edge_and_detour() { return weighted(4, {{0, 1, 1.0}, {0, 2, 10.0}, {1, 2, 1.0}, {2, 3, 1.0}}, false); }

// Pass 1 queues 1 and 2 (at 10); pass 2 lowers 2 to 2 through 1, queues it again, and relaxes 2
// (already at 2 in queue order) to 3; pass 3 relaxes 2 once more and 3: five edges scanned.
TEST(SsspPasses, BellmanFordRescansAVertexLoweredAfterItWasQueued) {
  const CsrF64 g = heavy_edge_and_detour();
  const SsspPassWork w = follow_sssp_passes(g, file_weights(g), 0, 0);
  EXPECT_EQ(w.passes, 3);
  EXPECT_EQ(w.edges, 5);
  EXPECT_EQ(w.queued, 1 + 2 + 2);
  // Pass 2's queue is 1 and 2 (one edge each), pass 3's 2 again and 3 (one and none).
  ASSERT_EQ(w.frontiers.size(), 3u);
  EXPECT_EQ(w.frontiers[0].longest, 2);
  EXPECT_EQ(w.frontiers[1].items, 2);
  EXPECT_EQ(w.frontiers[1].edges, 2);
  EXPECT_EQ(w.frontiers[2].edges, 1);
}

// Δ 5: the heavy offer (10) waits in the far set; the detour reaches 2 and 3 below the
// threshold in passes 2 and 3; pass 4 is empty, so the threshold rises to 10 and the sweep
// queues 2 again (still flagged far), whose edge pass 5 scans for nothing.
TEST(SsspPasses, DeltaSteppingSweepsTheFarSetWhenTheQueueEmpties) {
  const CsrF64 g = heavy_edge_and_detour();
  const SsspPassWork w = follow_sssp_passes(g, file_weights(g), 0, 5);
  EXPECT_EQ(w.passes, 5);
  EXPECT_EQ(w.sweeps, 1);
  EXPECT_EQ(w.edges, 2 + 1 + 1 + 0 + 1);
}

// A walk past its budget stops at the end of a pass, its counts lower bounds.
TEST(SsspPasses, AWalkPastItsBudgetStopsShort) {
  const CsrF64 g = unit_path(9);
  const SsspPassWork whole = follow_sssp_passes(g, file_weights(g), 0, 0);
  EXPECT_FALSE(whole.cut_short);
  const SsspPassWork cut = follow_sssp_passes(g, file_weights(g), 0, 0, 3);
  EXPECT_TRUE(cut.cut_short);
  EXPECT_EQ(cut.edges, 4);  // the pass that took it past 3 edges ends
  EXPECT_EQ(cut.passes, 4);
}

TEST(SsspPasses, ASourceOutsideTheGraphDoesNothing) {
  const CsrF64 g = heavy_edge_and_detour();
  const SsspPassWork w = follow_sssp_passes(g, file_weights(g), 7, 0);
  EXPECT_EQ(w.passes, 0);
  EXPECT_EQ(w.edges, 0);
}

}  // namespace
}  // namespace ktune
