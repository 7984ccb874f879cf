// CI's check of the SIMT GEMM kernels without a GPU: the PTX interpreter runs whole plans of
// every decomposition (data-parallel, split-K, Stream-K at several grids, the hybrid) over a
// few tiles, on odd shapes (33 x 47 x 65, batches of 2) in every layout, f32 and f64, and C must
// pass the family's sampled check. k spans many Stream-K ranges, so tiles are fixed up from
// two to many peers. A kernel that drops the last k-slice must fail. The tensor-core kernels of
// mma.sync run too (ldmatrix, cp.async): bf16 and f16, and f64's DMMA at both of its k depths,
// in every layout, on an aligned shape (16-byte cp.async chunks) and a ragged one; wgmma is
// compile-checked only (tests/kernels/gemm_compile_test.cpp).
#include <gtest/gtest.h>

#include <cstring>
#include <future>

#include "gpu/thread_pool.h"
#include "kernels/gemm/gemm_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/ptx/spmv_ptx_corpus.h"

namespace ktune::interp {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

using testing_support::compile_to_ptx_cached;

Config tile(const char* decomposition, int64_t bm, int64_t bn, int64_t bk, int64_t tm, int64_t tn, int64_t stages,
            int64_t split, int64_t sk_grid, int64_t raster = 1) {
  static const std::map<std::string, int64_t> kinds = {
      {"data_parallel", 0}, {"split_k", 1}, {"stream_k", 2}, {"hybrid", 3}};
  return {{"mma", 0}, {"decomposition", kinds.at(decomposition)}, {"bm", bm}, {"bn", bn}, {"bk", bk}, {"tm", tm}, {"tn", tn},
          {"stages", stages}, {"split", split}, {"sk_grid", sk_grid}, {"raster", raster}, {"loader", 0}, {"cluster", 1}};
}

// Every decomposition, with tiles of both pipeline depths and of square and oblong shapes, in
// row-major and grouped tile orders (3 tile-rows: groups of 2 and 4 leave a partial one).
std::vector<Config> configs() {
  return {tile("data_parallel", 16, 16, 8, 2, 2, 2, 1, 132),    tile("data_parallel", 32, 16, 16, 4, 1, 1, 1, 132, 2),
          tile("split_k", 16, 16, 8, 2, 2, 1, 4, 132, 4),       tile("split_k", 16, 32, 8, 2, 2, 2, 16, 132),
          tile("stream_k", 16, 16, 8, 2, 2, 2, 1, 4),           tile("stream_k", 32, 16, 16, 4, 1, 1, 1, 28),
          tile("stream_k", 16, 16, 8, 2, 2, 2, 1, 132, 2),      tile("hybrid", 16, 16, 8, 2, 2, 2, 1, 4, 8),
          tile("hybrid", 16, 16, 8, 2, 2, 1, 1, 8)};
}

std::shared_ptr<const ptx::PtxModule> module_of(const GemmFamily& family, const Problem& p, const Config& config) {
  KernelSource s = family.source(p, config);
  CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), "compute_90"};
  return std::make_shared<const ptx::PtxModule>(ptx::parse_ptx(compile_to_ptx_cached(request)));
}

struct PendingRun {
  std::string what;
  Problem problem;
  Config config;
  std::future<std::shared_ptr<const ptx::PtxModule>> module;
};

TEST(GemmInterp, EveryDecompositionComputesTheSampledReference) {
  const GemmFamily family;
  const Workload dense{WorkloadKind::Dense, {}};
  ThreadPool pool;
  std::vector<PendingRun> runs;
  for (Dtype dtype : {Dtype::F32, Dtype::F64})
    for (const char* layout : {"nn", "nt", "tn", "tt"}) {
      if (dtype == Dtype::F64 && (std::string(layout) == "nt" || std::string(layout) == "tn")) continue;
      const Problem p = make_problem(family, {{"m", 33}, {"n", 47}, {"k", 65}, {"batch", 2}, {"layout", layout}},
                                     Precision::uniform(dtype));
      for (const Config& config : configs()) {
        ASSERT_TRUE(family.space(p).valid(config)) << family.space(p).violation(config);
        runs.push_back({family.space(p).canonical(config) + " " + layout + " " + to_string(dtype), p, config,
                        pool.submit([&family, p, config] { return module_of(family, p, config); })});
      }
    }
  for (PendingRun& r : runs) {
    SCOPED_TRACE(r.what);
    const LaunchPlan plan = family.prepare(dense, r.problem, r.config);
    const std::vector<double> reference = family.reference(dense, r.problem).at("c");
    const PlanOutput& out = plan.outputs.at(0);
    const std::vector<double> got = compute_outputs(*r.module.get(), plan).at("c");
    const Verdict v = family.verify(r.problem, out, output_bytes(got, out.dtype), reference, check_data_of(plan));
    EXPECT_TRUE(v.ok) << v.message;
  }
}

// mma 0 is sync for bf16 and f16, 1 is dmma for f64 and tf32 for tf32 (one kernel).
Config mma_sync(const char* decomposition, int64_t bm, int64_t bn, int64_t bk, int64_t tm, int64_t tn, int64_t stages,
                int64_t split, int64_t sk_grid, int64_t mma) {
  Config c = tile(decomposition, bm, bn, bk, tm, tn, stages, split, sk_grid);
  c["mma"] = mma;
  return c;
}

TEST(GemmInterp, TheMmaSyncKernelsComputeTheSampledReference) {
  const GemmFamily family;
  const Workload dense{WorkloadKind::Dense, {}};
  ThreadPool pool;
  std::vector<PendingRun> runs;
  for (Dtype dtype : {Dtype::BF16, Dtype::F16, Dtype::F64, Dtype::TF32})
    for (const char* layout : {"nn", "nt", "tn", "tt"})
      // Aligned (16-byte copies; 88 leaves a k-tail the copy zero-fills), and ragged.
      for (const auto& [m, n, k] : {std::array<int64_t, 3>{64, 48, 96}, std::array<int64_t, 3>{64, 48, 88},
                                    std::array<int64_t, 3>{33, 47, 65}}) {
        const bool f64 = dtype == Dtype::F64, k8 = f64 || dtype == Dtype::TF32;
        const Problem p = make_problem(family, {{"m", m}, {"n", n}, {"k", k}, {"layout", layout}},
                                       f64 ? Precision::uniform(dtype) : Precision{dtype, Dtype::F32, Dtype::F32});
        // DMMA and tf32: k-slices of 16 and 32 (two and four m16n8k8 steps, the next loaded as one
        // computes).
        const std::vector<Config> kernels =
            k8 ? std::vector<Config>{mma_sync("data_parallel", 32, 32, 16, 16, 16, 2, 1, 132, 1),
                                      mma_sync("stream_k", 64, 32, 32, 32, 16, 3, 1, 4, 1)}
                : std::vector<Config>{mma_sync("data_parallel", 32, 32, 32, 16, 16, 2, 1, 132, 0),
                                      mma_sync("stream_k", 64, 32, 16, 32, 16, 3, 1, 4, 0)};
        for (const Config& config : kernels) {
          ASSERT_TRUE(family.space(p).valid(config)) << family.space(p).violation(config);
          runs.push_back({family.space(p).canonical(config) + " " + layout + " " + to_string(dtype) + " " +
                              std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
                          p, config, pool.submit([&family, p, config] { return module_of(family, p, config); })});
        }
      }
  for (PendingRun& r : runs) {
    SCOPED_TRACE(r.what);
    const LaunchPlan plan = family.prepare(dense, r.problem, r.config);
    const PlanOutput& out = plan.outputs.at(0);
    std::vector<double> got;
    try {
      got = compute_outputs(*r.module.get(), plan).at("c");
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    const Verdict v = family.verify(r.problem, out, output_bytes(got, out.dtype), family.reference(dense, r.problem).at("c"),
                                    check_data_of(plan));
    EXPECT_TRUE(v.ok) << v.message;
  }
}

TEST(GemmInterp, AKernelThatDropsTheLastKSliceFails) {
  const GemmFamily family;
  const Workload dense{WorkloadKind::Dense, {}};
  const Problem p = make_problem(family, {{"m", 33}, {"n", 47}, {"k", 65}}, Precision::uniform(Dtype::F32));
  for (const Config& config : {configs()[0], configs()[4]}) {
    LaunchPlan plan = family.prepare(dense, p, config);
    // The kernel told k = 64: the 65th product of every element is missing.
    plan.steps.at(0).args.at(2) = KernelArg::of_scalar(int32_t{64});
    const std::vector<double> got = compute_outputs(*module_of(family, p, config), plan).at("c");
    const Verdict v = family.verify(p, plan.outputs.at(0), output_bytes(got, Dtype::F32), family.reference(dense, p).at("c"),
                                    check_data_of(plan));
    EXPECT_FALSE(v.ok) << family.space(p).canonical(config);
  }
}

}  // namespace
}  // namespace ktune::interp
