// End to end, without a GPU: SpMV candidates compiled by NVRTC for sm_90, interpreted on
// sampled blocks of small matrices and emulated on the sm_90 spec.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "model/saake/candidate_emulation.h"
#include "model/saake/saake_prediction.h"
#include "tests/kernels/random_csr.h"
#include "tests/saake/spmv_candidates.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using testing_support::compile_spmv;
using testing_support::random_csr;
using testing_support::spmv_config;

const char* const kRow = "block=256;items_per_thread=1;lanes=1;schedule=row";
const char* const kSubwarp = "block=128;items_per_thread=1;lanes=8;schedule=subwarp";
const char* const kMerge = "block=128;items_per_thread=4;lanes=1;schedule=merge";
const char* const kAdaptive = "block=256;items_per_thread=4;lanes=1;schedule=adaptive";

using testing_support::workload_of;

CandidatePrediction emulate(const Workload& w, const std::string& key, Dtype dtype,
                            const CandidateEmulationOptions& options = {}) {
  const SpmvFamily family;
  const Config config = spmv_config(key);
  const LaunchPlan plan = family.prepare(w, Problem::of(dtype), config);
  return emulate_candidate(family, w, Problem::of(dtype), config, plan, *compile_spmv(config, dtype), spec_for_arch("sm_90"), options);
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

TEST(CandidateEmulation, EveryScheduleGivesAFinitePositiveDeterministicPrediction) {
  const Workload w = workload_of(random_csr(6000, 6000, 24, 3));
  for (const char* key : {kRow, kSubwarp, kMerge, kAdaptive}) {
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      SCOPED_TRACE(std::string(key) + " " + to_string(dtype));
      const CandidatePrediction p = emulate(w, key, dtype);
      EXPECT_TRUE(std::isfinite(p.microseconds));
      EXPECT_GT(p.microseconds, p.launch_microseconds);
      EXPECT_GT(p.launch_microseconds, 0);
      // The matrix kernel, after merge's zeroing of the rows its tiles begin in.
      ASSERT_EQ(p.steps.size(), std::string(key) == kMerge ? 2u : 1u);
      for (const StepEmulation& step : p.steps) EXPECT_GT(step.prediction.samples.size(), 0u);
      EXPECT_GT(p.occupancy, 0);
      EXPECT_LE(p.occupancy, 1);
      EXPECT_GE(p.imbalance, 1);
      // Every schedule reads the matrix: global sectors reach some level of the hierarchy.
      const double sectors = p.transactions[static_cast<size_t>(Resource::L1)] +
                             p.transactions[static_cast<size_t>(Resource::L2)] +
                             p.transactions[static_cast<size_t>(Resource::Dram)];
      EXPECT_GT(sectors, 0);
      PtxModuleCache fresh;
      CandidateEmulationOptions again;
      again.ptx_cache = &fresh;
      EXPECT_EQ(emulate(w, key, dtype, again).microseconds, p.microseconds);
    }
  }
}

// Past its trace budget a launch traces no more sampled blocks, but it always traces two, the
// heaviest and the lightest sample: the fit of time to weight spans the samples' range, and the
// cache estimate sees sectors that two blocks share. On a matrix with one huge row, the two
// still see it, and the prediction stays close.
TEST(CandidateEmulation, ALaunchPastItsTraceBudgetKeepsItsHeaviestAndLightestSamples) {
  const Workload w = workload_of(matrix_with_one_huge_row(20000, 40000));
  CandidateEmulationOptions unbounded;
  unbounded.max_traced_warp_instructions_per_launch = UINT64_MAX;
  const CandidatePrediction all = emulate(w, kRow, Dtype::F32, unbounded);
  CandidateEmulationOptions tight;
  tight.max_traced_warp_instructions_per_launch = 1;
  const CandidatePrediction two = emulate(w, kRow, Dtype::F32, tight);
  const auto& samples = all.steps.at(0).prediction.samples;
  ASSERT_GT(samples.size(), 2u);
  const auto by_weight = [](const SampledBlock& a, const SampledBlock& b) { return a.weight < b.weight; };
  const double lightest = std::min_element(samples.begin(), samples.end(), by_weight)->weight;
  const double heaviest = std::max_element(samples.begin(), samples.end(), by_weight)->weight;
  ASSERT_LT(lightest, heaviest);
  ASSERT_EQ(two.steps.size(), 1u);
  const auto& traced = two.steps[0].prediction.samples;
  ASSERT_EQ(traced.size(), 2u);
  EXPECT_EQ(std::min(traced[0].weight, traced[1].weight), lightest);
  EXPECT_EQ(std::max(traced[0].weight, traced[1].weight), heaviest);
  EXPECT_LT(two.warp_instructions, all.warp_instructions);
  // The one row of 40000 nonzeros bounds the kernel's time either way.
  EXPECT_NEAR(two.microseconds, all.microseconds, 0.25 * all.microseconds);
}

TEST(CandidateEmulation, ALargerMatrixTakesLonger) {
  const Workload small = workload_of(random_csr(4000, 4000, 16, 8));
  // Large enough to be bandwidth-bound: at 200k rows a row-per-thread grid is still one
  // latency-bound wave, as long as the small one's.
  const Workload large = workload_of(random_csr(1000000, 1000000, 16, 8));
  for (const char* key : {kRow, kSubwarp, kMerge, kAdaptive}) {
    SCOPED_TRACE(key);
    const double t_small = emulate(small, key, Dtype::F32).microseconds;
    const double t_large = emulate(large, key, Dtype::F32).microseconds;
    // 250x the nonzeros; the small one is mostly launch overhead and one latency-bound wave
    // on a partly idle GPU, so the times differ by less than the work.
    EXPECT_GT(t_large, 2 * t_small);
  }
}

TEST(CandidateEmulation, OneThreadPerRowOnAHugeRowIsSlowerThanAdaptive) {
  const Workload w = workload_of(matrix_with_one_huge_row(20000, 40000));
  const CandidatePrediction row = emulate(w, kRow, Dtype::F32);
  const CandidatePrediction adaptive = emulate(w, kAdaptive, Dtype::F32);
  EXPECT_GT(row.microseconds, 3 * adaptive.microseconds);
  // The one block holding the huge row dominates the row schedule's makespan.
  EXPECT_GT(row.imbalance, 10);
}

TEST(CandidateEmulation, SensitivityNamesTheBottleneck) {
  const Workload w = workload_of(random_csr(20000, 20000, 16, 4));
  CandidateEmulationOptions options;
  options.sensitivity = true;
  const CandidatePrediction p = emulate(w, kSubwarp, Dtype::F64, options);
  ASSERT_TRUE(p.bottleneck_from_sensitivity);
  const SensitivityReport& report = *p.steps[0].sensitivity;
  EXPECT_EQ(p.bottleneck, report.bottleneck.resource);
  EXPECT_GT(report.bottleneck.elasticity, 0);
  const nlohmann::json j = sensitivity_json(p);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["bottleneck"]["resource"], resource_name(p.bottleneck));
  EXPECT_EQ(j["bottleneck_label"], bottleneck_label(p));
  // The same candidate without the analysis names its bottleneck from utilisation instead.
  const CandidatePrediction plain = emulate(w, kSubwarp, Dtype::F64);
  EXPECT_FALSE(plain.bottleneck_from_sensitivity);
  EXPECT_TRUE(sensitivity_json(plain).is_null());
  EXPECT_EQ(plain.microseconds, p.microseconds);
}

TEST(CandidateEmulation, ConvertsToTheFirstModelsPrediction) {
  const Workload w = workload_of(random_csr(8000, 8000, 12, 6));
  const GpuSpec gpu = spec_for_arch("sm_90");
  const CandidatePrediction p = emulate(w, kMerge, Dtype::F32);
  const Prediction first = to_prediction(p, gpu);
  EXPECT_EQ(first.time_us, p.microseconds);
  EXPECT_EQ(first.launch_us, p.launch_microseconds);
  EXPECT_NEAR(first.compute_us + first.launch_us, first.time_us, 1e-9);
  EXPECT_EQ(first.occupancy, p.occupancy);
  EXPECT_EQ(first.bottleneck,
            std::string(resource_name(p.bottleneck)) + ":" + bound_kind_name(p.bottleneck_kind));
  const double dram_bytes = p.transactions[static_cast<size_t>(Resource::Dram)] * 32;
  EXPECT_NEAR(first.memory_us, dram_bytes / (gpu.dram_bandwidth_gbs * 1e3), 1e-9);
  const nlohmann::json j = to_json(p);
  EXPECT_EQ(j["time_us"].get<double>(), p.microseconds);
  EXPECT_EQ(j["steps"].size(), 2u);  // spmv_zero_rows, spmv_merge
  EXPECT_EQ(j["steps"].size(), p.steps.size());
}

TEST(CandidateEmulation, BadCandidatesAreInputErrors) {
  const SpmvFamily family;
  const Workload w = workload_of(random_csr(500, 500, 8, 2));
  const Config config = spmv_config(kRow);
  const LaunchPlan plan = family.prepare(w, Problem::of(Dtype::F32), config);
  const CompiledKernel good = *compile_spmv(config, Dtype::F32);
  const GpuSpec gpu = spec_for_arch("sm_90");
  auto emulate_with = [&](const CompiledKernel& k, const LaunchPlan& p) {
    PtxModuleCache cache;
    CandidateEmulationOptions options;
    options.ptx_cache = &cache;
    emulate_candidate(family, w, Problem::of(Dtype::F32), config, p, k, gpu, options);
  };

  CompiledKernel failed = good;
  failed.ok = false;
  EXPECT_THROW(emulate_with(failed, plan), InputError);

  CompiledKernel garbage = good;
  garbage.ptx = ".version 8.0\n.target sm_90\nthis is not ptx;\n";
  EXPECT_THROW(emulate_with(garbage, plan), InputError);

  CompiledKernel no_usage = good;
  no_usage.usage.clear();
  EXPECT_THROW(emulate_with(no_usage, plan), InputError);

  LaunchPlan wrong_entry = plan;
  wrong_entry.steps[0].entry = "no_such_kernel";
  wrong_entry.steps[0].args.clear();
  EXPECT_THROW(emulate_with(good, wrong_entry), InputError);

  LaunchPlan wrong_args = plan;
  wrong_args.steps[0].args.pop_back();
  EXPECT_THROW(emulate_with(good, wrong_args), InputError);

  LaunchPlan no_steps = plan;
  no_steps.steps.clear();
  EXPECT_THROW(emulate_with(good, no_steps), InputError);
}

}  // namespace
}  // namespace ktune
