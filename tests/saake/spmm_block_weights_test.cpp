#include "kernels/spmm/spmm_block_weights.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/spmm/spmm_family.h"
#include "model/saake/candidate_emulation.h"
#include "tests/kernels/random_csr.h"

namespace ktune {
namespace {

using testing_support::csr_with_row_lengths;

Problem problem(int32_t k) { return Problem::of(Dtype::F32, {{"k", k}}); }

Config config_of(const char* schedule, int64_t lanes, int64_t threshold = 64) {
  return spmm_space(64).from_json({{"schedule", schedule},
                                   {"block", 128},
                                   {"lanes", lanes},
                                   {"vec", 1},
                                   {"k_tile", 64},
                                   {"items", 32},
                                   {"threshold", threshold}});
}

// 2000 rows of 0..7 nonzeros, and row 1000 of 6000.
Workload hub_row_workload() {
  std::vector<int32_t> lengths(2000);
  for (size_t r = 0; r < lengths.size(); ++r) lengths[r] = static_cast<int32_t>(r % 8);
  lengths[1000] = 6000;
  Workload w;
  w.matrix = csr_with_row_lengths(lengths, 6100);
  return w;
}

// Every launch of every schedule is weighed from the plan's buffers (none falls back on the
// O(nnz) estimate), a weight a block of the grid, every K tile alike.
TEST(SpmmBlockWeights, EveryLaunchIsWeighedBlockByBlock) {
  const SpmmFamily family;
  const Workload w = hub_row_workload();
  for (const Config& config : family.space(problem(64)).enumerate()) {
    const LaunchPlan plan = family.prepare(w, problem(64), config);
    for (const LaunchStep& step : plan.steps) {
      SCOPED_TRACE(spmm_space(64).canonical(config) + " " + step.entry);
      const std::optional<std::vector<double>> weights = spmm_block_weights(plan, step);
      ASSERT_TRUE(weights.has_value());
      ASSERT_EQ(weights->size(), size_t{step.grid.x} * step.grid.y);
      const size_t per_tile = step.grid.x;
      for (size_t i = per_tile; i < weights->size(); ++i) EXPECT_EQ((*weights)[i], (*weights)[i % per_tile]);
      EXPECT_GT(*std::max_element(weights->begin(), weights->end()), 0);
    }
  }
}

// The block holding the hub row outweighs the others by about its length when rows are split
// by warps; heavy_light's light launch leaves it out and its chunks weigh at most the threshold;
// the nonzero split's blocks weigh the same but the last.
TEST(SpmmBlockWeights, TheHubRowsBlockIsTheHeaviestOnlyWhereAWarpHoldsIt) {
  const SpmmFamily family;
  const Workload w = hub_row_workload();
  auto weights_of = [&](const Config& config, const std::string& entry) {
    const LaunchPlan plan = family.prepare(w, problem(64), config);
    for (const LaunchStep& step : plan.steps)
      if (step.entry == entry) return *spmm_block_weights(plan, step);
    throw std::runtime_error("no launch " + entry);
  };
  const std::vector<double> rows = weights_of(config_of("row_split", 32), "spmm_row_split");
  const size_t hub_block = 1000 / 4;  // 4 rows a block of 4 warps
  EXPECT_EQ(std::max_element(rows.begin(), rows.end()) - rows.begin(), static_cast<ptrdiff_t>(hub_block));
  EXPECT_GE(rows[hub_block], 6000);
  const std::vector<double> light = weights_of(config_of("heavy_light", 32, 256), "spmm_light_rows");
  EXPECT_LE(*std::max_element(light.begin(), light.end()), 4 * (1 + 7));
  const std::vector<double> chunks = weights_of(config_of("heavy_light", 32, 256), "spmm_heavy_chunks");
  EXPECT_LE(*std::max_element(chunks.begin(), chunks.end()), 4 * (1 + 256));
  const std::vector<double> segments = weights_of(config_of("nonzero_split", 32), "spmm_nonzero_split");
  EXPECT_GE(std::count(segments.begin(), segments.end(), segments.front()),
            static_cast<ptrdiff_t>(segments.size() - 1));
}

// The emulator takes these weights: the hub row's block is among the blocks it traces.
TEST(SpmmBlockWeights, TheEmulatorWeighsTheFamilysWay) {
  const SpmmFamily family;
  const Workload w = hub_row_workload();
  const Config config = config_of("row_split", 32);
  const LaunchPlan plan = family.prepare(w, problem(64), config);
  const LaunchWeigher weigher = LaunchWeigher::of(family, w, problem(64), config, plan);
  EXPECT_EQ(weigher.weights(plan, plan.steps.back()), *spmm_block_weights(plan, plan.steps.back()));
}

}  // namespace
}  // namespace ktune
