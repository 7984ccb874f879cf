#include <gtest/gtest.h>

#include "kernels/spmv/spmv_family.h"
#include "model/saake/block_weights.h"
#include "tests/kernels/random_csr.h"
#include "tests/saake/spmv_candidates.h"

namespace ktune {
namespace {

LaunchStep step_of(uint32_t blocks, uint32_t threads) {
  LaunchStep s;
  s.grid.x = blocks;
  s.block.x = threads;
  return s;
}

TEST(BlockWeights, ABlockWeighsTheSumOfItsWarps) {
  WorkEstimate e;
  e.blocks = 3;
  e.threads_per_block = 64;  // two warps a block
  e.warp_work = {1, 2, 0, 5, 7, 7};
  EXPECT_EQ(block_weights_for(e, step_of(3, 64)), (std::vector<double>{3, 5, 14}));
}

TEST(BlockWeights, AnEstimateOfAnotherGridGivesUniformWeights) {
  WorkEstimate e;
  e.blocks = 2;
  e.threads_per_block = 32;
  e.warp_work = {4, 9};
  EXPECT_EQ(block_weights_for(e, step_of(5, 32)), std::vector<double>(5, 1.0));
  EXPECT_EQ(block_weights_for(e, step_of(2, 64)), std::vector<double>(2, 1.0));
}

// The SpMV estimate lists its warps block after block for every schedule, so that its
// per-block weights add up to its total work over exactly the launched grid.
TEST(BlockWeights, SpmvEstimatesDescribeTheirLaunchedGrid) {
  const SpmvFamily family;
  Workload w;
  w.matrix = testing_support::random_csr(3000, 3000, 40, 9);
  for (const char* key : {"block=256;items_per_thread=1;lanes=1;schedule=row",
                          "block=128;items_per_thread=1;lanes=4;schedule=subwarp",
                          "block=64;items_per_thread=8;lanes=1;schedule=merge",
                          "block=512;items_per_thread=2;lanes=1;schedule=adaptive"}) {
    SCOPED_TRACE(key);
    const Config config = testing_support::spmv_config(key);
    const WorkEstimate e = family.estimate(w, Problem::of(Dtype::F32), config);
    const std::vector<LaunchStep> steps = family.launches(w, {}, config);
    const std::vector<double> weights = block_weights_for(e, steps.back());  // the matrix kernel
    ASSERT_EQ(static_cast<int64_t>(weights.size()), e.blocks);
    double total = 0, warps = 0;
    for (double x : weights) total += x;
    for (double x : e.warp_work) warps += x;
    EXPECT_DOUBLE_EQ(total, warps);
    EXPECT_GT(total, 0);
    EXPECT_NE(weights, std::vector<double>(weights.size(), 1.0));
  }
}

}  // namespace
}  // namespace ktune
