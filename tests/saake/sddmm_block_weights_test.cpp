#include "kernels/sddmm/sddmm_block_weights.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "kernels/sddmm/sddmm_family.h"
#include "model/saake/block_weights.h"
#include "tests/kernels/random_csr.h"

namespace ktune {
namespace {

constexpr int32_t kK = 40;

// Row 1234 holds 2000 nonzeros; the others up to 5.
Workload with_hub_row() {
  CsrF64 a = testing_support::random_csr(3000, 3000, 5, 3);
  Workload w;
  CsrF64& hub = w.matrix;
  hub.rows = a.rows;
  hub.cols = a.cols;
  hub.row_ptr.push_back(0);
  for (int32_t r = 0; r < a.rows; ++r) {
    if (r == 1234) {
      for (int32_t c = 0; c < 2000; ++c) hub.col_idx.push_back(c);
    } else {
      hub.col_idx.insert(hub.col_idx.end(), a.col_idx.begin() + a.row_ptr[r], a.col_idx.begin() + a.row_ptr[r + 1]);
    }
    hub.row_ptr.push_back(static_cast<int32_t>(hub.col_idx.size()));
  }
  hub.values.assign(hub.col_idx.size(), 1.0);
  return w;
}

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// Read from the plan alone, the weights agree with the estimate's warps: the same up to the row
// schedules' passes over K, and each block of the nonzero schedule weighs the nonzeros it covers.
TEST(SddmmBlockWeights, AgreeWithTheEstimateOnEveryConfiguration) {
  const SddmmFamily family;
  const Workload w = with_hub_row();
  const Problem problem = Problem::of(Dtype::F32, {{"k", kK}});
  for (const Config& config : family.space(problem).enumerate()) {
    const SddmmConfig c = SddmmConfig::from(config, kK);
    SCOPED_TRACE(family.space(problem).canonical(config));
    const LaunchPlan plan = family.prepare(w, problem, config);
    const std::optional<std::vector<double>> weights = family.block_weights(plan, plan.steps[0]);
    ASSERT_TRUE(weights.has_value());
    ASSERT_EQ(weights->size(), plan.steps[0].grid.x);
    const std::vector<double> estimated = block_weights_for(family.estimate(w, problem, config), plan.steps[0]);
    const size_t hub_block = static_cast<size_t>(1234 / c.groups_per_block());
    if (c.schedule == SddmmSchedule::Nonzero) {
      EXPECT_DOUBLE_EQ(sum(*weights), static_cast<double>(w.matrix.nnz()));
      EXPECT_EQ(weights->front(), c.groups_per_block() * c.coarsen);
      continue;
    }
    EXPECT_EQ(std::max_element(weights->begin(), weights->end()) - weights->begin(), static_cast<ptrdiff_t>(hub_block));
    if (c.schedule == SddmmSchedule::Row) {
      for (size_t b = 0; b < weights->size(); ++b) EXPECT_DOUBLE_EQ((*weights)[b] * c.passes(kK), estimated[b]) << b;
    } else {
      // Each dense tile of a panel costs its warps a staging step more than the row schedule.
      const LaunchPlan row_plan = family.prepare(w, problem, {{"schedule", 1}, {"block", c.block}, {"lanes", c.lanes},
                                                              {"vec", c.vec}, {"coarsen", 1}, {"chunks", c.chunks}});
      const std::vector<double> row = *family.block_weights(row_plan, row_plan.steps[0]);
      const std::vector<int32_t> tile_ptr = [&] {
        const DeviceBuffer& b = *plan.buffer("tile_ptr");
        std::vector<int32_t> v(b.bytes.size() / 4);
        std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
        return v;
      }();
      for (size_t b = 0; b < weights->size(); ++b)
        EXPECT_DOUBLE_EQ((*weights)[b], row[b] + (tile_ptr[b + 1] - tile_ptr[b]) * (c.block / 32.0)) << b;
    }
  }
}

TEST(SddmmBlockWeights, NothingForAnotherLaunchOrMissingBuffers) {
  const SddmmFamily family;
  const Workload w = with_hub_row();
  const Problem problem = Problem::of(Dtype::F32, {{"k", kK}});
  LaunchPlan plan = family.prepare(w, problem, sddmm_first_config(SddmmSchedule::Row, kK));
  LaunchStep other = plan.steps[0];
  other.entry = "spmv_row";
  EXPECT_FALSE(sddmm_block_weights(plan, other).has_value());
  plan.buffers.erase(std::remove_if(plan.buffers.begin(), plan.buffers.end(),
                                    [](const DeviceBuffer& b) { return b.name == "row_ptr"; }),
                     plan.buffers.end());
  EXPECT_FALSE(sddmm_block_weights(plan, plan.steps[0]).has_value());
}

}  // namespace
}  // namespace ktune
