// The first cost model on the contraction family's estimates, against what the H100 measured
// (bench/results/contractions_h100_7f4ea9e_tiles.md): on sd_t_d2_1, whose output's fastest
// index lies at stride 16 in its operand, the tiled schedule with a 4 x 4 register tile in a
// 64 x 64 block tile (110 us) ahead of a thread per output in a 16 x 16 tile (169 us), and both
// ahead of the direct schedule, whose lanes read an operand sector each (344 us).
#include <gtest/gtest.h>

#include "kernels/contraction/contraction_family.h"
#include "model/first_cost_model.h"
#include "model/gpu_spec.h"

namespace ktune {
namespace {

double predicted_us(const ContractionFamily& family, const Problem& p, const Config& c) {
  static const GpuSpec h100 = spec_for_arch("sm_90");
  ResourceUsage usage;
  usage.registers = 32;
  return predict(family.estimate(Workload{WorkloadKind::Dense, {}}, p, c), usage, h100).time_us;
}

Config config(int64_t schedule, int64_t block, int64_t coarsen, int64_t coarsen2, int64_t tile) {
  return {{"schedule", schedule}, {"block", block}, {"coarsen", coarsen}, {"coarsen2", coarsen2}, {"unroll", 16}, {"tile", tile}};
}

TEST(ContractionFirstModel, LargerTilesAheadOfSmallOnesAndStagedOperandsAheadOfStridedReads) {
  const ContractionFamily family;
  const Problem p = make_problem(family, {{"preset", "sd_t_d2_1"}, {"extent", 16}}, Precision::uniform(Dtype::F64));
  const double large_tiles = predicted_us(family, p, config(1, 256, 4, 4, 64));
  const double thread_per_output = predicted_us(family, p, config(1, 256, 1, 1, 16));
  const double direct = predicted_us(family, p, config(0, 128, 1, 4, 1));
  EXPECT_LT(large_tiles, thread_per_output);
  EXPECT_LT(thread_per_output, direct);
  // No faster than T3 in and out at the DRAM bandwidth.
  EXPECT_GT(large_tiles, family.min_bytes(Workload{WorkloadKind::Dense, {}}, p) / 3.35e6);
}

}  // namespace
}  // namespace ktune
