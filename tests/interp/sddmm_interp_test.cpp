// CI's check of every SDDMM device kernel without a GPU: the PTX interpreter runs each
// configuration's launch plan (fp32 and fp64, K = 36: no power of two, so groups end inside a
// vector pass and K tiles inside K) on small matrices with empty rows, a very long row, and bands
// whose panels have more dense columns than the tiled schedule stages at once; its c must pass
// the same verification as a GPU run (kernels/output_check.h) against the CPU reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <future>
#include <map>
#include <set>

#include "kernels/device_buffers.h"
#include "kernels/sddmm/sddmm_family.h"
#include "kernels/sddmm/sddmm_tiles.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/random_csr.h"
#include "tests/ptx/spmv_ptx_corpus.h"
#include "workload/generators.h"

namespace ktune::interp {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

using testing_support::compile_to_ptx_cached;
using testing_support::random_csr;

constexpr int64_t kK = 36;

struct SddmmPtx {
  Config config;
  Problem problem;
  std::string name;
  std::string ptx;
};

// Every configuration at K, in both precisions, compiled to PTX once (cached in the build tree).
const std::vector<SddmmPtx>& sddmm_ptx_corpus(int64_t k) {
  static std::map<int64_t, std::vector<SddmmPtx>> corpora;
  std::vector<SddmmPtx>& corpus = corpora[k];
  if (!corpus.empty()) return corpus;
  const SddmmFamily family;
  ThreadPool pool;
  std::vector<std::future<std::string>> ptx;
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const Problem problem = Problem::of(dtype, {{"k", k}});
    for (const Config& config : family.space(problem).enumerate()) {
      KernelSource s = family.source(problem, config);
      corpus.push_back({config, problem, family.space(problem).canonical(config) + " " + to_string(dtype), {}});
      CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), "compute_90"};
      ptx.push_back(pool.submit([request] { return compile_to_ptx_cached(request); }));
    }
  }
  for (size_t i = 0; i < corpus.size(); ++i) corpus[i].ptx = ptx[i].get();
  return corpus;
}

using testing_support::workload_of;

// `a` with row `row` replaced by `length` columns spread over all of them.
CsrF64 with_long_row(const CsrF64& a, int32_t row, int32_t length) {
  CsrF64 out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_ptr.push_back(0);
  for (int32_t r = 0; r < a.rows; ++r) {
    if (r == row) {
      for (int32_t i = 0; i < length; ++i) out.col_idx.push_back(static_cast<int32_t>(int64_t{i} * a.cols / length));
    } else {
      out.col_idx.insert(out.col_idx.end(), a.col_idx.begin() + a.row_ptr[r], a.col_idx.begin() + a.row_ptr[r + 1]);
    }
    out.row_ptr.push_back(static_cast<int32_t>(out.col_idx.size()));
  }
  out.values.assign(out.col_idx.size(), 1.0);
  return out;
}

Verdict run_and_verify(const SddmmFamily& family, const ptx::PtxModule& module, const LaunchPlan& plan,
                       const std::vector<double>& reference) {
  const std::vector<double> c = compute_outputs(module, plan).at("c");
  return family.verify(plan.problem, plan.outputs.at(0), output_bytes(c, plan.outputs.at(0).dtype), reference, {});
}

TEST(SddmmInterp, EveryConfigurationComputesTheReference) {
  const SddmmFamily family;
  const std::vector<std::pair<std::string, Workload>> workloads = {
      {"long row", workload_of(with_long_row(random_csr(97, 2500, 6, 7), 48, 2000))},
      {"band", workload_of(generate_banded(150, 10, 3))},
      {"stencil", workload_of(generate_stencil_2d(12))},
      {"all empty", workload_of(random_csr(37, 20, 0, 3))},
      {"no rows", workload_of(random_csr(0, 5, 0, 1))},
  };
  std::vector<std::vector<double>> references;
  for (const auto& [name, w] : workloads)
    references.push_back(family.reference(w, Problem::of(Dtype::F64, {{"k", kK}})).at("c"));
  std::set<std::string> schedules;
  size_t checked = 0;
  for (const SddmmPtx& item : sddmm_ptx_corpus(kK)) {
    const ptx::PtxModule module = ptx::parse_ptx(item.ptx);
    schedules.insert(SddmmConfig::from(item.config, kK).schedule_name());
    for (size_t i = 0; i < workloads.size(); ++i) {
      SCOPED_TRACE(item.name + " on " + workloads[i].first);
      const LaunchPlan plan = family.prepare(workloads[i].second, item.problem, item.config);
      Verdict v;
      ASSERT_NO_THROW(v = run_and_verify(family, module, plan, references[i]));
      EXPECT_TRUE(v.ok) << v.message;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * family.space(Problem::of(Dtype::F32, {{"k", kK}})).enumerate().size() * workloads.size());
  EXPECT_EQ(schedules, (std::set<std::string>{"nonzero", "row", "tiled"}));
}

// The band's panels have more dense columns than the f64 kernels' widest K tile has slots: the
// tiled schedule stages several tiles a panel there, and a panel holds both dense and sparse runs
// on the long-row matrix.
TEST(SddmmInterp, TheTiledCasesSpanSeveralTilesAndSparseRests) {
  const SddmmTiling band = sddmm_tiling(generate_banded(150, 10, 3), 64, 32);
  int64_t most_tiles = 0;
  for (size_t p = 0; p + 1 < band.tile_ptr.size(); ++p) most_tiles = std::max<int64_t>(most_tiles, band.tile_ptr[p + 1] - band.tile_ptr[p]);
  EXPECT_GE(most_tiles, 2);
  const CsrF64 long_row = with_long_row(random_csr(97, 2500, 6, 7), 48, 2000);
  const SddmmTiling mixed = sddmm_tiling(long_row, 32, 256);
  const int64_t staged = std::count_if(mixed.tile_cols.begin(), mixed.tile_cols.end(), [](int32_t c) { return c >= 0; });
  EXPECT_GT(staged, 0);
  EXPECT_LT(staged, long_row.nnz());
}

// K at its ends: one element (most lanes idle), and 1024 (several passes adding into c).
TEST(SddmmInterp, TheFirstConfigurationOfEveryScheduleComputesTheReferenceAtTheEndsOfK) {
  const SddmmFamily family;
  const Workload w = workload_of(with_long_row(random_csr(70, 300, 5, 9), 35, 250));
  for (int64_t k : {1, 1024}) {
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      const Problem problem = Problem::of(dtype, {{"k", k}});
      const std::vector<double> reference = family.reference(w, problem).at("c");
      for (SddmmSchedule schedule : {SddmmSchedule::Nonzero, SddmmSchedule::Row, SddmmSchedule::Tiled}) {
        const Config config = sddmm_first_config(schedule, static_cast<int32_t>(k));
        SCOPED_TRACE(family.space(problem).canonical(config) + " k=" + std::to_string(k) + " " + to_string(dtype));
        KernelSource s = family.source(problem, config);
        const ptx::PtxModule module = ptx::parse_ptx(
            compile_to_ptx_cached({std::move(s.code), std::move(s.entries), std::move(s.options), "compute_90"}));
        const Verdict v = run_and_verify(family, module, family.prepare(w, problem, config), reference);
        EXPECT_TRUE(v.ok) << v.message;
      }
    }
  }
}

// The check has teeth: a plan whose columns are shifted by one computes other products, and fails.
TEST(SddmmInterp, AWrongKernelFailsTheCheck) {
  const SddmmFamily family;
  const SddmmPtx& item = sddmm_ptx_corpus(kK).front();
  const Workload w = workload_of(random_csr(120, 90, 10, 5));
  LaunchPlan plan = family.prepare(w, item.problem, item.config);
  std::vector<int32_t> shifted = w.matrix.col_idx;
  for (int32_t& c : shifted) c = (c + 1) % w.matrix.cols;
  for (DeviceBuffer& b : plan.buffers) {
    if (b.name == "col_idx") b.bytes = input_buffer("col_idx", shifted).bytes;
  }
  const Verdict v =
      run_and_verify(family, ptx::parse_ptx(item.ptx), plan, family.reference(w, item.problem).at("c"));
  EXPECT_FALSE(v.ok);
}

}  // namespace
}  // namespace ktune::interp
