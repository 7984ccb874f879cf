// The first cost model on BFS's estimates, level by level: a level lasts at least as long as the
// lane holding its largest vertex takes to walk that vertex's row, however many SMs are idle
// (pubmed's levels of a few hundred vertices and one of degree 171 made a thread a vertex 2.5x
// slower than the tile on the H100, bench/data/graphs_h100/sample_7047c8e).
#include <gtest/gtest.h>

#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_family.h"
#include "model/first_cost_model.h"
#include "model/gpu_spec.h"
#include "tests/kernels/bfs_graphs.h"

namespace ktune {
namespace {

const GpuSpec& h100() {
  static const GpuSpec spec = spec_for_arch("sm_90");
  return spec;
}

double predicted_us(const Workload& w, const Problem& p, const Config& c) {
  ResourceUsage usage;
  usage.registers = 32;
  return predict(BfsFamily().estimate(w, p, c), usage, h100()).time_us;
}

// From the centre of a star of 4000 vertices: level 0 is the centre alone, with 3999 edges. A
// thread walks them one after another, two round trips each (the head's index, then its depth);
// a warp 32 at a time; the tile spreads them over its block.
TEST(BfsFirstModel, ALevelHoldingOneHubLastsItsLanesWalkOfTheRow) {
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = testing_support::star_graph(4000);
  const Problem p = make_problem(BfsFamily(), {{"sources", {0}}}, Precision::uniform(Dtype::I32));
  Config thread = bfs_space().first_valid();  // push over a queue, a thread a vertex
  thread["block"] = 256;
  Config warp = thread, tile = thread;
  warp["schedule"] = static_cast<int64_t>(BfsBalance::Warp);
  tile["schedule"] = static_cast<int64_t>(BfsBalance::Tile);
  // Each round reads lines the run has not touched since L2 was flushed: DRAM's latency.
  const double dram_us = h100().timing[static_cast<size_t>(Resource::Dram)].latency / h100().clock_ghz / 1e3;
  const double by_thread = predicted_us(w, p, thread);
  EXPECT_GT(by_thread, 2 * 3999 * dram_us);
  EXPECT_LT(predicted_us(w, p, warp), by_thread / 4);
  EXPECT_LT(predicted_us(w, p, tile), by_thread / 4);
}

// A path from one end has a level a vertex: the plan's loop turns once a level and runs its
// body's nodes each time (push over a queue: the expansion and the level's end), as one graph.
TEST(BfsFirstModel, APathIsChargedItsLevelsAsTheLoopsTurns) {
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = testing_support::path_graph(2000);
  const Problem p = make_problem(BfsFamily(), {{"sources", {0}}}, Precision::uniform(Dtype::I32));
  const Config queue = bfs_space().first_valid();
  const WorkEstimate e = BfsFamily().estimate(w, p, queue);
  EXPECT_EQ(e.loop_iterations, 2000);
  EXPECT_EQ(e.launches, plan_nodes(BfsFamily().program(w, p, queue)).launches(2000));
  EXPECT_EQ(plan_nodes(BfsFamily().program(w, p, queue)).per_iteration, 2);
  // On an H200 such a level took 7.8 µs (bench/results/loop_launch_h200.md: BFS on paths of 500
  // and 2000 vertices, push over a queue, a thread a vertex); the model's turn, two nodes and a
  // level's chain come within a quarter of it.
  const double per_level = predicted_us(w, p, queue) / 2000;
  EXPECT_NEAR(per_level, 7.8, 7.8 / 4);
}

// Pushing over the bitmap sweeps every vertex's bit, whatever the frontier: a block a vertex, one
// wave of 264 blocks of 1024 takes a path of 20000 vertices in 76 turns, each a vertex's three
// round trips and its block's one, however small the level.
TEST(BfsFirstModel, ABitmapSweepWaitsOnEveryVertexsTurn) {
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = testing_support::path_graph(20000);
  const Problem p = make_problem(BfsFamily(), {{"sources", {0}}}, Precision::uniform(Dtype::I32));
  Config bitmap = bfs_space().first_valid();
  bitmap["frontier"] = static_cast<int64_t>(BfsFrontier::Bitmap);
  bitmap["schedule"] = static_cast<int64_t>(BfsBalance::Block);
  bitmap["block"] = 1024;
  bitmap["coarsen"] = 1;
  ASSERT_TRUE(bfs_space().valid(bitmap));
  const WorkEstimate e = BfsFamily().estimate(w, p, bitmap);
  ASSERT_EQ(e.steps.size(), 20000u);
  EXPECT_GE(e.steps[1].chain_rounds, 76 * 4);
  Config queue = bitmap;
  queue["frontier"] = static_cast<int64_t>(BfsFrontier::Queue);
  ASSERT_TRUE(bfs_space().valid(queue));
  EXPECT_LT(BfsFamily().estimate(w, p, queue).steps[1].chain_rounds, 20);
}

}  // namespace
}  // namespace ktune
