// Connected components' edge schedule gives the first model one block's warps repeated over the
// grid (every warp takes the same edges): the prediction must be the one the whole grid's list
// gives, on a grid whose last block is partly empty.
#include <gtest/gtest.h>

#include "kernels/cc/cc_family.h"
#include "model/first_cost_model.h"
#include "model/gpu_spec.h"
#include "tests/kernels/graph_cases.h"
#include "workload/generators.h"

namespace ktune {
namespace {

TEST(CcFirstModel, TheEdgeSchedulesRepeatedBlockPredictsAsTheWholeGridsList) {
  const Workload w = testing_support::graph_case::graph(generate_rmat(12, 8, 3, {}, false));
  ResourceUsage usage;
  usage.registers = 32;
  const GpuSpec gpu = spec_for_arch("sm_90");
  for (int64_t algorithm : {0, 2})
    for (int64_t block : {64, 256, 1024}) {
      const Config c = {{"algorithm", algorithm}, {"schedule", static_cast<int64_t>(CcSchedule::Edge)},
                        {"block", block},         {"lanes", 1},
                        {"items", 2},             {"jumps", 0}};
      const WorkEstimate compact = CcFamily().estimate(w, Problem::of(Dtype::I32), c);
      ASSERT_EQ(compact.warp_work.size(), static_cast<size_t>(block / 32));
      ASSERT_GT(compact.warp_work_repeats, 1);
      WorkEstimate whole = compact;
      whole.warp_work_repeats = 1;
      for (int64_t b = 1; b < compact.warp_work_repeats; ++b)
        whole.warp_work.insert(whole.warp_work.end(), compact.warp_work.begin(), compact.warp_work.end());
      ASSERT_EQ(static_cast<int64_t>(whole.warp_work.size()), compact.blocks * (block / 32));
      const Prediction a = predict(compact, usage, gpu), b = predict(whole, usage, gpu);
      EXPECT_DOUBLE_EQ(a.time_us, b.time_us) << block;
      EXPECT_DOUBLE_EQ(a.imbalance, b.imbalance) << block;
    }
}

}  // namespace
}  // namespace ktune
