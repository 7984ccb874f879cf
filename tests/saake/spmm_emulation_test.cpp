// End to end, without a GPU: SpMM candidates compiled by NVRTC for sm_90, interpreted on sampled
// blocks of small matrices and emulated on the sm_90 spec, weighed by the family's block weights.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/compile_cache.h"
#include "kernels/spmm/spmm_family.h"
#include "model/saake/candidate_emulation.h"
#include "tests/kernels/random_csr.h"

namespace ktune {
namespace {

using testing_support::random_csr;

using testing_support::workload_of;

Problem problem(int32_t k) { return Problem::of(Dtype::F32, {{"k", k}}); }

Config config_of(int32_t k, const char* schedule, int64_t lanes, int64_t k_tile, int64_t threshold = 64) {
  return SpmmFamily()
      .space(problem(k))
      .from_json({{"schedule", schedule},
                  {"block", 128},
                  {"lanes", lanes},
                  {"vec", 1},
                  {"k_tile", k_tile},
                  {"items", 32},
                  {"threshold", threshold}});
}

CandidatePrediction emulate(const Workload& w, int32_t k, const Config& config) {
  static const NvrtcCompiler compiler;
  static CompileCache cache(compiler, 16, nullptr);
  const SpmmFamily family;
  const KernelSource s = family.source(problem(k), config);
  const std::shared_ptr<const CompiledKernel> kernel = cache.get(CompileRequest{s.code, s.entries, s.options, "sm_90"});
  if (!kernel->ok) throw std::runtime_error("NVRTC failed:\n" + kernel->log);
  const LaunchPlan plan = family.prepare(w, problem(k), config);
  return emulate_candidate(family, w, problem(k), config, plan, *kernel, spec_for_arch("sm_90"));
}

// Short rows (0..4) and, in the middle, one row of `long_length` nonzeros.
CsrF64 matrix_with_one_huge_row(int32_t rows, int32_t long_length) {
  CsrF64 a = random_csr(rows, long_length + 1000, 4, 5);
  CsrF64 out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_ptr.push_back(0);
  for (int32_t r = 0; r < a.rows; ++r) {
    if (r == rows / 2) {
      for (int32_t c = 0; c < long_length; ++c) out.col_idx.push_back(c), out.values.push_back(0.5);
    } else {
      for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i)
        out.col_idx.push_back(a.col_idx[i]), out.values.push_back(a.values[i]);
    }
    out.row_ptr.push_back(static_cast<int32_t>(out.col_idx.size()));
  }
  return out;
}

TEST(SpmmEmulation, EveryScheduleGivesAFinitePositiveDeterministicPrediction) {
  const Workload w = workload_of(random_csr(3000, 3000, 24, 3));
  for (const Config& config :
       {config_of(32, "row_split", 32, 32), config_of(32, "row_split", 8, 32), config_of(32, "nonzero_split", 16, 32),
        config_of(32, "heavy_light", 32, 32, 64), config_of(32, "aspt", 8, 32)}) {
    SCOPED_TRACE(SpmmFamily().space(problem(32)).canonical(config));
    const CandidatePrediction p = emulate(w, 32, config);
    EXPECT_TRUE(std::isfinite(p.microseconds));
    EXPECT_GT(p.microseconds, p.launch_microseconds);
    EXPECT_GT(p.launch_microseconds, 0);
    EXPECT_EQ(p.steps.size(), SpmmFamily().prepare(w, problem(32), config).steps.size());
    for (const StepEmulation& step : p.steps) EXPECT_GT(step.prediction.samples.size(), 0u);
    EXPECT_GT(p.occupancy, 0);
    EXPECT_LE(p.occupancy, 1);
    EXPECT_EQ(emulate(w, 32, config).microseconds, p.microseconds);
  }
}

TEST(SpmmEmulation, MoreWorkTakesLonger) {
  const Workload small = workload_of(random_csr(4000, 4000, 16, 8));
  const Workload large = workload_of(random_csr(200000, 200000, 16, 8));
  for (const Config& config : {config_of(32, "row_split", 32, 32), config_of(32, "nonzero_split", 8, 32)}) {
    SCOPED_TRACE(SpmmFamily().space(problem(32)).canonical(config));
    const double t_small = emulate(small, 32, config).microseconds;
    EXPECT_GT(emulate(large, 32, config).microseconds, 2 * t_small);
  }
  // Four times the columns of B and C on the same matrix: four times the K tiles.
  const double k32 = emulate(large, 32, config_of(32, "row_split", 32, 32)).microseconds;
  EXPECT_GT(emulate(large, 128, config_of(128, "row_split", 32, 32)).microseconds, 2 * k32);
}

// A warp per row waits on the hub row; heavy_light spreads it over chunks of 64 nonzeros.
TEST(SpmmEmulation, AHubRowIsSlowerRowSplitThanHeavyLight) {
  const Workload w = workload_of(matrix_with_one_huge_row(20000, 40000));
  const CandidatePrediction row = emulate(w, 32, config_of(32, "row_split", 32, 32));
  const CandidatePrediction heavy_light = emulate(w, 32, config_of(32, "heavy_light", 32, 32, 64));
  EXPECT_GT(row.microseconds, 3 * heavy_light.microseconds);
  EXPECT_GT(row.imbalance, 10);
}

}  // namespace
}  // namespace ktune
