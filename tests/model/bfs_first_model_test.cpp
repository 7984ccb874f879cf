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
  const double l2_us = h100().timing[static_cast<size_t>(Resource::L2)].latency / h100().clock_ghz / 1e3;
  const double by_thread = predicted_us(w, p, thread);
  EXPECT_GT(by_thread, 2 * 3999 * l2_us);
  EXPECT_LT(predicted_us(w, p, warp), by_thread / 4);
  EXPECT_LT(predicted_us(w, p, tile), by_thread / 4);
}

}  // namespace
}  // namespace ktune
