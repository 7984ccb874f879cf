// The tensor-core GEMM on the GPU (the PTX interpreter runs no mma, so this is its only run):
// bf16 and f16, mma.sync and wgmma in every layout; a shape whose rows take 16-byte
// cp.async copies, a ragged one that takes the element-wise path, and a ragged one with aligned
// rows; each tile shape, pipeline depth and decomposition listed below and a sample of the
// space, verified by the measurement worker against the double-precision sample of C. Then
// the listed tiles against cuBLAS on 4096^3, printed, not asserted (the benchmark's numbers
// come from family_bench).
#include <gtest/gtest.h>

#include <future>

#include "gpu/thread_pool.h"
#include "kernels/gemm/gemm_config.h"
#include "kernels/gemm/gemm_family.h"
#include "tests/device/device_fixture.h"
#include "tests/kernels/gemm_tma_keys.h"

namespace ktune {
namespace {

Config tile(const char* decomposition, int64_t bm, int64_t bn, int64_t bk, int64_t tm, int64_t tn, int64_t stages,
            int64_t split, int64_t sk_grid, int64_t raster, int64_t mma = 0) {
  static const std::map<std::string, int64_t> kinds = {
      {"data_parallel", 0}, {"split_k", 1}, {"stream_k", 2}, {"hybrid", 3}};
  return {{"mma", mma}, {"decomposition", kinds.at(decomposition)}, {"bm", bm}, {"bn", bn}, {"bk", bk}, {"tm", tm}, {"tn", tn},
          {"stages", stages}, {"split", split}, {"sk_grid", sk_grid}, {"raster", raster}, {"loader", 0},
          {"cluster", 1}};
}

// Warp tiles 16 to 64, one to eight warps, k-slices 16 to 64, rings of 2 to 5 stages; the last
// a ring of exactly 48 KB in layout nt (4 x 256 rows of 16 + 8 bf16), which with the kernel's
// own shared ints needs the kernel's leave to launch.
std::vector<Config> listed() {
  return {tile("data_parallel", 128, 128, 32, 64, 64, 3, 1, 132, 1), tile("data_parallel", 32, 32, 16, 16, 16, 2, 1, 132, 1),
          tile("split_k", 64, 64, 64, 32, 32, 4, 4, 132, 1),        tile("stream_k", 64, 128, 32, 32, 64, 5, 1, 8, 1),
          tile("hybrid", 128, 64, 16, 64, 32, 2, 1, 4, 2),          tile("data_parallel", 256, 64, 32, 64, 32, 3, 1, 132, 4),
          tile("stream_k", 32, 256, 64, 32, 64, 2, 1, 132, 1),      tile("hybrid", 128, 128, 16, 64, 32, 4, 1, 144, 4)};
}

// wgmma: one and two warpgroups, m64 blocks of 1 and 2, n 64 to 256, rings of 3 to 5 stages,
// every decomposition; cp.async's ring, and TMA's in CTAs of one and (persistent) clusters of 2.
// In layouts other than nt, or with k not a multiple of 8, the operands are staged first
// (kernels/gemm/gemm_staging.h).
std::vector<Config> listed_wgmma() {
  Config tma = tile("data_parallel", 128, 128, 64, 64, 128, 4, 1, 132, 1, 1);
  tma["loader"] = 1;
  Config paired = tile("data_parallel", 128, 128, 64, 64, 128, 4, 1, 8, 2, 1);
  paired["decomposition"] = 4;  // persistent
  paired["loader"] = 1;
  paired["cluster"] = 2;
  return {tile("data_parallel", 128, 256, 64, 64, 256, 4, 1, 132, 1, 1), tile("data_parallel", 128, 128, 64, 128, 128, 3, 1, 132, 2, 1),
          tile("split_k", 64, 64, 64, 64, 64, 5, 4, 132, 1, 1),        tile("stream_k", 128, 128, 64, 64, 128, 4, 1, 8, 1, 1),
          tile("hybrid", 256, 128, 64, 128, 128, 3, 1, 4, 2, 1),       tile("stream_k", 128, 256, 64, 64, 256, 4, 1, 132, 4, 1),
          tma, paired};
}

// wgmma fed by TMA: built by name in tests/kernels/gemm_tma_keys.h, where the CPU tests check
// each is valid on every shape below and compile them.
std::vector<Config> listed_tma(const ParameterSpace& space) {
  std::vector<Config> configs;
  for (const nlohmann::json& j : gemm_tma_verify_parameters()) configs.push_back(space.from_json(j));
  return configs;
}

std::string shape_name(int64_t m, int64_t n, int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// Compiles each configuration added on a pool, then measures every one through the worker,
// which verifies C's sample against the double-precision reference.
class GemmOnDevice : public DeviceTest {
 protected:
  void add(const Problem& problem, const Config& config, const std::string& what) {
    const ParameterSpace space = family_.space(problem);
    // canonical() throws on a value outside a parameter's domain: print the raw values instead.
    ASSERT_TRUE(space.valid(config)) << nlohmann::json(config).dump() << " " << what << ": " << space.violation(config);
    KernelSource s = family_.source(problem, config);
    const std::string arch = compile_arch(s, measurer().device().arch());
    CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), arch};
    pending_.push_back({space.canonical(config) + " " + what, problem, config,
                        pool_.submit([request] { return NvrtcCompiler{}.compile(request); })});
  }
  void expect_every_one_verifies() {
    const Workload dense{WorkloadKind::Dense, {}};
    for (Pending& p : pending_) {
      const CompiledKernel k = p.kernel.get();
      ASSERT_TRUE(k.ok) << p.what << "\n" << k.log;
      MeasureOptions options;
      options.max_seconds = 0.02;
      const Measurement m = measurer().measure(k, family_.prepare(dense, p.problem, p.config),
                                               family_.reference(dense, p.problem), options);
      EXPECT_EQ(m.status, MeasureStatus::Ok) << p.what << ": " << m.message;
    }
  }
  const GemmFamily family_{};  // initialised: clang deletes the fixture's default constructor otherwise

 private:
  struct Pending {
    std::string what;
    Problem problem;
    Config config;
    std::future<CompiledKernel> kernel;
  };
  ThreadPool pool_;
  std::vector<Pending> pending_;
};

TEST_F(GemmOnDevice, TensorCoreConfigurationsVerifyInEveryLayoutAlignedAndRagged) {
  for (Dtype input : {Dtype::BF16, Dtype::F16}) {
    const Precision precision{input, Dtype::F32, Dtype::F32};
    for (const char* layout : {"nn", "nt", "tn", "tt"}) {
      for (const auto& [m, n, k, batch] : {std::array<int64_t, 4>{200, 136, 72, 2}, std::array<int64_t, 4>{77, 45, 53, 1},
                                     std::array<int64_t, 4>{77, 45, 56, 1}}) {
        const Problem problem =
            make_problem(family_, {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}, {"layout", layout}}, precision);
        std::vector<Config> configs = listed();
        const std::vector<Config> w = listed_wgmma();
        configs.insert(configs.end(), w.begin(), w.end());
        SpaceRng rng(7);
        for (Config& c : family_.space(problem).sample(rng, 3)) configs.push_back(std::move(c));
        for (const Config& config : configs)
          add(problem, config, std::string(layout) + " " + shape_name(m, n, k) + " " + to_string(precision));
      }
    }
  }
  expect_every_one_verifies();
}

// The m16n8k8 kernel, f64's DMMA and tf32's: every layout, rows of even length (16-byte copies)
// and odd (element by element), warp tiles 16 x 8 to 32 x 64 (tf32 to 64 x 64), slices of 16 and
// 32, rings of 2 to 5 stages, every decomposition.
TEST_F(GemmOnDevice, DmmaAndTf32ConfigurationsVerifyInEveryLayoutAlignedAndRagged) {
  const std::vector<Config> configs = {
      tile("data_parallel", 64, 64, 16, 32, 32, 3, 1, 132, 1, 1), tile("data_parallel", 32, 16, 16, 16, 8, 2, 1, 132, 1, 1),
      tile("split_k", 64, 64, 32, 32, 32, 4, 4, 132, 1, 1),      tile("stream_k", 64, 128, 32, 32, 32, 3, 1, 8, 1, 1),
      tile("hybrid", 128, 64, 16, 32, 32, 2, 1, 4, 2, 1),        tile("stream_k", 32, 64, 16, 16, 16, 5, 1, 132, 4, 1),
      tile("data_parallel", 128, 128, 32, 32, 64, 2, 1, 132, 2, 1), tile("stream_k", 64, 128, 32, 32, 64, 3, 1, 132, 1, 1)};
  const std::vector<Config> tf32_only = {tile("data_parallel", 128, 128, 32, 64, 64, 3, 1, 132, 1, 1),
                                         tile("stream_k", 256, 128, 16, 64, 64, 2, 1, 132, 2, 1),
                                         tile("hybrid", 128, 64, 32, 64, 32, 4, 1, 4, 1, 1)};
  for (const Precision& precision : {Precision::uniform(Dtype::F64), Precision{Dtype::TF32, Dtype::F32, Dtype::F32}})
    for (const char* layout : {"nn", "nt", "tn", "tt"})
      for (const auto& [m, n, k, batch] : {std::array<int64_t, 4>{200, 136, 72, 2}, std::array<int64_t, 4>{77, 45, 53, 1}}) {
        const Problem problem =
            make_problem(family_, {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}, {"layout", layout}}, precision);
        std::vector<Config> these = configs;
        if (precision.input == Dtype::TF32) these.insert(these.end(), tf32_only.begin(), tf32_only.end());
        for (const Config& config : these)
          add(problem, config, std::string(layout) + " " + shape_name(m, n, k) + " " + to_string(precision));
      }
  expect_every_one_verifies();
}

// tf32 through wgmma, cp.async's ring and TMA's, every decomposition, in every layout: square and
// aligned, batched, ragged in m and n; k a multiple of 4 (16-byte rows of f32: nt read as
// stored) and not (both operands copied k-major first, k padded with zeros).
TEST_F(GemmOnDevice, Tf32WgmmaConfigurationsVerifyInEveryLayoutRaggedAndBatched) {
  const Precision tf32{Dtype::TF32, Dtype::F32, Dtype::F32};
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (const auto& [m, n, k, batch] : {std::array<int64_t, 4>{256, 256, 256, 1}, std::array<int64_t, 4>{200, 136, 76, 2},
                                         std::array<int64_t, 4>{77, 45, 53, 1}}) {
      const Problem problem =
          make_problem(family_, {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}, {"layout", layout}}, tf32);
      for (Config c : listed_wgmma()) {
        c["mma"] = gemm_mma_index(GemmKernel::Wgmma, tf32);
        c["bk"] = gemm_wgmma_bk(tf32);
        add(problem, c, std::string(layout) + " " + shape_name(m, n, k) + " tf32");
      }
    }
  expect_every_one_verifies();
}

// The TMA loader (layout nt, k a multiple of 8): square and aligned, ragged in m, n and k with k
// past the last 64-deep slice (TMA's zero fill), batches stacked in one tensor map, and an odd
// count of tile-columns and tile-rows (a cluster of 2's padding tile). Run alone with
// --gtest_filter='GemmOnDevice.Tma*'.
TEST_F(GemmOnDevice, TmaConfigurationsVerifyInEveryDecompositionAlignedAndRagged) {
  for (Dtype input : {Dtype::BF16, Dtype::F16}) {
    const Precision precision{input, Dtype::F32, Dtype::F32};
    for (const auto& [m, n, k, batch] : kGemmTmaVerifyShapes) {
      const Problem problem =
          make_problem(family_, {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}, {"layout", "nt"}}, precision);
      for (const Config& config : listed_tma(family_.space(problem)))
        add(problem, config, "nt " + shape_name(m, n, k) + " batch " + std::to_string(batch) + " " + to_string(precision));
    }
  }
  expect_every_one_verifies();
}

// The configurations NOTES.md ("GEMM on the H100") hands to family_bench
// (tests/kernels/gemm_tma_keys.h), on the sizes it compares against cuBLAS: verified
// (asserted) and timed beside cuBLAS (printed).
TEST_F(GemmOnDevice, TmaBenchmarkKeysAgainstCublasOnLargeShapes) {
  const Workload dense{WorkloadKind::Dense, {}};
  for (const auto& [m, n, k] : {std::array<int64_t, 3>{4096, 4096, 4096}, std::array<int64_t, 3>{8192, 8192, 8192},
                                std::array<int64_t, 3>{384, 384, 16384}}) {
    const Problem problem =
        make_problem(family_, {{"m", m}, {"n", n}, {"k", k}, {"layout", "nt"}}, {Dtype::BF16, Dtype::F32, Dtype::F32});
    const double flops = family_.flops(dense, problem);
    const PreparedReference reference(family_.reference(dense, problem));
    MeasureOptions options;
    options.max_seconds = 0.5;
    for (const VendorCall& call : family_.vendor_calls(dense, problem)) {
      const Measurement v = measurer().measure_vendor(family_.vendor_plan(dense, problem), call, reference, options);
      std::printf("%s bf16 %-24s %9.1f us %6.1f TFLOP/s\n", shape_name(m, n, k).c_str(), call.label.c_str(), v.median_us,
                  flops / v.median_us / 1e6);
    }
    const ParameterSpace space = family_.space(problem);
    for (const std::string& key : m == n && n == k ? kGemmTmaSquareKeys : kGemmTmaSkinnyKeys) {
      const Config config = space.from_canonical(key);
      KernelSource s = family_.source(problem, config);
      const std::string arch = compile_arch(s, measurer().device().arch());
      const CompiledKernel kernel =
          NvrtcCompiler{}.compile(CompileRequest{std::move(s.code), std::move(s.entries), std::move(s.options), arch});
      ASSERT_TRUE(kernel.ok) << kernel.log;
      const Measurement r = measurer().measure(kernel, family_.prepare(dense, problem, config), reference, options);
      EXPECT_EQ(r.status, MeasureStatus::Ok) << key << ": " << r.message;
      std::printf("%s bf16 %-112s %9.1f us %6.1f TFLOP/s regs %d\n", shape_name(m, n, k).c_str(), key.c_str(),
                  r.median_us, flops / r.median_us / 1e6, kernel.usage.begin()->second.registers);
    }
  }
}

TEST_F(GemmOnDevice, ListedTilesAgainstCublasOn4096Cubed) {
  const GemmFamily& family = family_;
  const Workload dense{WorkloadKind::Dense, {}};
  for (const char* layout : {"nn", "nt"}) {
    const Problem problem = make_problem(family, {{"m", 4096}, {"n", 4096}, {"k", 4096}, {"layout", layout}},
                                         {Dtype::BF16, Dtype::F32, Dtype::F32});
    const double flops = family.flops(dense, problem);
    const PreparedReference reference(family.reference(dense, problem));
    const LaunchPlan vendor_plan = family.vendor_plan(dense, problem);
    MeasureOptions options;
    options.max_seconds = 0.5;
    for (const VendorCall& call : family.vendor_calls(dense, problem)) {
      const Measurement m = measurer().measure_vendor(vendor_plan, call, reference, options);
      std::printf("4096^3 %s bf16 %-24s %9.1f us %6.1f TFLOP/s %s\n", layout, call.label.c_str(), m.median_us,
                  flops / m.median_us / 1e6, m.status == MeasureStatus::Ok ? "" : m.message.c_str());
    }
    const ParameterSpace space = family.space(problem);
    std::vector<Config> configs = listed();
    configs.push_back(tile("data_parallel", 128, 256, 32, 64, 64, 3, 1, 132, 4));
    configs.push_back(tile("data_parallel", 256, 128, 32, 64, 64, 3, 1, 132, 4));
    configs.push_back(tile("data_parallel", 128, 128, 64, 64, 64, 3, 1, 132, 8));
    configs.push_back(tile("data_parallel", 128, 128, 32, 64, 64, 5, 1, 132, 8));
    if (std::string(layout) == "nt") {
      const std::vector<Config> w = listed_wgmma();
      configs.insert(configs.end(), w.begin(), w.end());
      const std::vector<Config> t = listed_tma(space);
      configs.insert(configs.end(), t.begin(), t.end());
      configs.push_back(tile("data_parallel", 128, 256, 64, 64, 256, 5, 1, 132, 8, 1));
      configs.push_back(tile("data_parallel", 256, 128, 64, 128, 128, 4, 1, 132, 8, 1));
    }
    for (const Config& config : configs) {
      if (!space.valid(config)) continue;
      KernelSource s = family.source(problem, config);
      const std::string arch = compile_arch(s, measurer().device().arch());
      const CompiledKernel k =
          NvrtcCompiler{}.compile(CompileRequest{std::move(s.code), std::move(s.entries), std::move(s.options), arch});
      ASSERT_TRUE(k.ok) << k.log;
      const Measurement m = measurer().measure(k, family.prepare(dense, problem, config), reference, options);
      std::printf("4096^3 %s bf16 %-90s %9.1f us %6.1f TFLOP/s regs %d %s\n", layout, space.canonical(config).c_str(),
                  m.median_us, flops / m.median_us / 1e6, k.usage.begin()->second.registers,
                  m.status == MeasureStatus::Ok ? "" : m.message.c_str());
    }
  }
}

}  // namespace
}  // namespace ktune
