// End to end, without a GPU: SDDMM candidates compiled by NVRTC for sm_90, interpreted on sampled
// blocks of small matrices and emulated on the sm_90 spec.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/compile_cache.h"
#include "kernels/sddmm/sddmm_family.h"
#include "model/saake/candidate_emulation.h"
#include "tests/kernels/random_csr.h"
#include "workload/generators.h"

namespace ktune {
namespace {

using testing_support::random_csr;

using testing_support::workload_of;

Config config_of(const std::string& schedule, int64_t block, int64_t lanes, int64_t vec, int64_t coarsen,
                 int64_t chunks, int32_t k) {
  return sddmm_space(k).from_json(
      {{"schedule", schedule}, {"block", block}, {"lanes", lanes}, {"vec", vec}, {"coarsen", coarsen}, {"chunks", chunks}});
}

CandidatePrediction emulate(const Workload& w, const Config& config, int32_t k, Dtype dtype,
                            const CandidateEmulationOptions& options = {}) {
  static const NvrtcCompiler compiler;
  static CompileCache cache(compiler, 64, nullptr);
  const SddmmFamily family;
  const Problem problem = Problem::of(dtype, {{"k", k}});
  const KernelSource s = family.source(problem, config);
  const std::shared_ptr<const CompiledKernel> kernel = cache.get(CompileRequest{s.code, s.entries, s.options, "sm_90"});
  if (!kernel->ok) throw std::runtime_error("NVRTC failed:\n" + kernel->log);
  return emulate_candidate(family, w, problem, config, family.prepare(w, problem, config), *kernel,
                           spec_for_arch("sm_90"), options);
}

// One configuration of each schedule at K.
std::vector<Config> candidates(int32_t k) {
  return {config_of("nonzero", 128, 8, 4, 2, 1, k), config_of("row", 256, 8, 4, 1, 1, k),
          config_of("tiled", 256, 8, 4, 1, 1, k)};
}

TEST(SddmmEmulation, EveryScheduleGivesAFinitePositiveDeterministicPrediction) {
  const Workload w = workload_of(generate_banded(3000, 6, 1));
  for (const Config& config : candidates(32)) {
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      SCOPED_TRACE(sddmm_space(32).canonical(config) + " " + to_string(dtype));
      const CandidatePrediction p = emulate(w, config, 32, dtype);
      EXPECT_TRUE(std::isfinite(p.microseconds));
      EXPECT_GT(p.microseconds, p.launch_microseconds);
      EXPECT_GT(p.launch_microseconds, 0);
      ASSERT_EQ(p.steps.size(), 1u);
      EXPECT_GT(p.steps[0].prediction.samples.size(), 0u);
      EXPECT_GT(p.occupancy, 0);
      EXPECT_LE(p.occupancy, 1);
      PtxModuleCache fresh;
      CandidateEmulationOptions again;
      again.ptx_cache = &fresh;
      EXPECT_EQ(emulate(w, config, 32, dtype, again).microseconds, p.microseconds);
    }
  }
}

// More nonzeros, or a longer K on the same nonzeros, is more work and takes longer.
TEST(SddmmEmulation, HeavierWorkloadsTakeLonger) {
  const Workload small = workload_of(random_csr(4000, 4000, 16, 8));
  const Workload large = workload_of(random_csr(200000, 200000, 16, 8));
  for (const Config& config : candidates(32)) {
    SCOPED_TRACE(sddmm_space(32).canonical(config));
    const double t_small = emulate(small, config, 32, Dtype::F32).microseconds;
    EXPECT_GT(emulate(large, config, 32, Dtype::F32).microseconds, 2 * t_small);
  }
  for (const Config& config : candidates(256)) {
    SCOPED_TRACE(sddmm_space(256).canonical(config));
    EXPECT_GT(emulate(small, config, 256, Dtype::F32).microseconds,
              1.5 * emulate(small, candidates(32)[static_cast<size_t>(config.at("schedule"))], 32, Dtype::F32).microseconds);
  }
}

}  // namespace
}  // namespace ktune
