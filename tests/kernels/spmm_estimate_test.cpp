#include "kernels/spmm/spmm_estimate.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/spmm/spmm_family.h"
#include "random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::csr_with_row_lengths;
using testing_support::random_csr;

using testing_support::workload_of;

Problem problem(int32_t k) { return Problem::of(Dtype::F32, {{"k", k}}); }

Config config_of(int32_t k, const char* schedule, int64_t lanes, int64_t k_tile, int64_t threshold = 64) {
  return spmm_space(k).from_json({{"schedule", schedule},
                                  {"block", 128},
                                  {"lanes", lanes},
                                  {"vec", 1},
                                  {"k_tile", k_tile},
                                  {"items", 32},
                                  {"threshold", threshold}});
}

// One launch's schedules list the warps of exactly the grid they launch, K tiles included, so
// the first model and the emulator's fallback weights see the real grid; every launch counts.
TEST(SpmmEstimate, DescribesTheMatrixKernelsGrid) {
  const SpmmFamily family;
  const Workload w = workload_of(random_csr(1000, 800, 30, 2));
  for (int32_t k : {3, 40}) {
    for (const Config& config : family.space(problem(k)).enumerate()) {
      const SpmmConfig c = SpmmConfig::from(config, k);
      SCOPED_TRACE(spmm_space(k).canonical(config));
      const WorkEstimate e = family.estimate(w, problem(k), config);
      const LaunchPlan plan = family.prepare(w, problem(k), config);
      EXPECT_EQ(e.launches, static_cast<int32_t>(plan.steps.size()));
      EXPECT_EQ(e.threads_per_block, c.block);
      // K's tiles repeat one tile's warps (the grid's y), stored once.
      EXPECT_EQ(e.warp_work_repeats, c.k_tiles(k));
      EXPECT_EQ(e.warp_work.size() * static_cast<size_t>(e.warp_work_repeats), static_cast<size_t>(e.blocks * c.block / 32));
      if (c.schedule != SpmmSchedule::HeavyLight) {
        const LaunchStep& kernel = plan.steps.back();
        EXPECT_EQ(e.blocks, int64_t{kernel.grid.x} * kernel.grid.y);
      }
      EXPECT_GT(e.dram_bytes, family.min_bytes(w, problem(k)) / 2);
    }
  }
}

TEST(SpmmEstimate, MoreColumnsMoveMoreBytes) {
  const Workload w = workload_of(random_csr(2000, 2000, 16, 3));
  for (const char* schedule : {"row_split", "nonzero_split", "heavy_light", "aspt"}) {
    const WorkEstimate narrow =
        estimate_spmm(w, SpmmConfig::from(config_of(32, schedule, 32, 32), 32), 32, Dtype::F32);
    const WorkEstimate wide =
        estimate_spmm(w, SpmmConfig::from(config_of(128, schedule, 32, 128), 128), 128, Dtype::F32);
    EXPECT_GT(wide.dram_bytes, 3 * narrow.dram_bytes) << schedule;
  }
}

// A warp per row waits on its hub row; heavy_light's warps see chunks of the threshold at most,
// and the nonzero split's full warps all walk the same number of items.
TEST(SpmmEstimate, SplittingSchedulesBoundTheLongestWarp) {
  const Workload w = workload_of(csr_with_row_lengths({3, 0, 5000, 1, 7, 2, 0, 4, 9, 1, 3, 6}, 5100));
  auto longest = [&](const Config& config) {
    const WorkEstimate e = estimate_spmm(w, SpmmConfig::from(config, 32), 32, Dtype::F32);
    return *std::max_element(e.warp_work.begin(), e.warp_work.end());
  };
  EXPECT_GE(longest(config_of(32, "row_split", 32, 32)), 5000);
  EXPECT_LE(longest(config_of(32, "heavy_light", 32, 32, 256)), 257);
  EXPECT_LE(longest(config_of(32, "nonzero_split", 32, 32)), 32);
  const WorkEstimate split =
      estimate_spmm(w, SpmmConfig::from(config_of(32, "nonzero_split", 32, 32), 32), 32, Dtype::F32);
  EXPECT_EQ(std::count(split.warp_work.begin(), split.warp_work.end(), 32.0), (12 + w.matrix.nnz()) / 32);
}

// On a band, a panel's rows share most columns: aspt stages each once a panel where a warp per
// row gathers it for every row.
TEST(SpmmEstimate, AsptGathersLessOfBOnABand) {
  const Workload w = workload_of(generate_banded(4096, 16, 5));
  const WorkEstimate row =
      estimate_spmm(w, SpmmConfig::from(config_of(32, "row_split", 32, 32), 32), 32, Dtype::F32);
  const WorkEstimate aspt = estimate_spmm(w, SpmmConfig::from(config_of(32, "aspt", 8, 32), 32), 32, Dtype::F32);
  EXPECT_LT(aspt.dram_bytes, row.dram_bytes / 2);
}

}  // namespace
}  // namespace ktune
