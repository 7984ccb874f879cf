// A sample of the GEMM space, every precision and layout, must compile for the H100 (sm_90)
// (sm_90a for wgmma, fed by cp.async or by TMA in clusters of 1 and 2) without spilling and within 48 KiB of static shared memory. The
// tensor-core kernels (bf16, f16) run on the GPU only (tests/device/gemm_device_test.cpp): the
// PTX interpreter does not run mma yet. NVRTC needs no GPU.
#include <gtest/gtest.h>

#include <array>
#include <future>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/gemm/gemm_config.h"
#include "kernels/gemm/gemm_family.h"
#include "tests/kernels/gemm_tma_keys.h"

namespace ktune {
namespace {

struct Compilation {
  std::string what;
  std::string entry;
  std::future<CompiledKernel> result;
};

// Compiles `config` for sm_90 (sm_90a where the kernel needs it) on `pool`.
Compilation compile_on(ThreadPool& pool, const NvrtcCompiler& compiler, const GemmFamily& family,
                       const Problem& problem, const Config& config, std::string what) {
  KernelSource s = family.source(problem, config);
  const std::string entry = s.entries.at(0);
  const std::string arch = compile_arch(s, "sm_90");
  CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), arch};
  return {std::move(what), entry, pool.submit([&compiler, request] { return compiler.compile(request); })};
}

// Each compiled, with no spills, at most 48 KB of static shared memory, and no wgmma that ptxas
// serialises (waits after each) because it cannot prove the accumulators untouched.
void expect_compiled_without_spills(std::vector<Compilation>& compilations) {
  for (Compilation& c : compilations) {
    const CompiledKernel k = c.result.get();
    ASSERT_TRUE(k.ok) << c.what << "\n" << k.log;
    ASSERT_EQ(k.usage.count(c.entry), 1u) << c.what;
    const ResourceUsage& u = k.usage.at(c.entry);
    EXPECT_EQ(u.spill_stores, 0) << c.what << "\n" << k.log;
    EXPECT_EQ(u.spill_loads, 0) << c.what;
    EXPECT_LE(u.shared_bytes, 48 * 1024) << c.what;
    EXPECT_EQ(k.log.find("wgmma.mma_async instructions are serialized"), std::string::npos) << c.what << "\n" << k.log;
    std::printf("%s regs=%d shared=%d\n", c.what.c_str(), u.registers, u.shared_bytes);
  }
}

TEST(GemmCompile, ASampleOfEveryPrecisionAndLayoutCompilesForSm90WithoutSpills) {
  const GemmFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<Compilation> compilations;
  const std::vector<std::string> layouts = {"nn", "nt", "tn", "tt"};
  for (const Precision& precision : family.precisions()) {
    for (size_t l = 0; l < layouts.size(); ++l) {
      const Problem problem = make_problem(family, {{"m", 1000}, {"n", 1000}, {"k", 1000}, {"layout", layouts[l]}}, precision);
      const ParameterSpace space = family.space(problem);
      SpaceRng rng(31 + l);
      std::vector<Config> configs = space.sample(rng, 4);
      // The sample may miss wgmma: its widest tiles, in nt (read as they are) at least.
      if (layouts[l] == "nt" && gemm_has_wgmma(precision))
        for (const auto& [bm, bn, tm, tn, stages] :
             {std::array<int64_t, 5>{128, 256, 64, 256, 4}, {128, 128, 128, 128, 5}, {64, 128, 64, 64, 3}}) {
          Config c = space.first_valid();
          c["mma"] = gemm_mma_index(GemmKernel::Wgmma, precision), c["decomposition"] = 2, c["split"] = 1;
          c["sk_grid"] = 132, c["bk"] = gemm_wgmma_bk(precision);
          c["bm"] = bm, c["bn"] = bn, c["tm"] = tm, c["tn"] = tn, c["stages"] = stages;
          EXPECT_TRUE(space.valid(c)) << nlohmann::json(c).dump() << ": " << space.violation(c);
          configs.push_back(c);
          // The same tiles fed by TMA: Stream-K in CTAs of one, data-parallel in clusters of 2
          // sharing A (raster 1) and B (raster 4).
          c["loader"] = 1;
          configs.push_back(c);
          c["decomposition"] = 0, c["sk_grid"] = 132, c["cluster"] = 2;
          for (int64_t raster : {1, 4}) {
            c["raster"] = raster;
            EXPECT_TRUE(space.valid(c)) << nlohmann::json(c).dump() << ": " << space.violation(c);
            configs.push_back(c);
          }
        }
      // The m16n8k8 kernel's warp tiles (bm, bn, bk, tm, tn, stages), one to eight warps. DMMA's:
      // the widest (32 x 64: two steps' fragments beside 64 accumulators) among them, rings of 2
      // to 4 stages, slices of 16 and 32. tf32's: up to 64 x 64 (one step's 16 + 16 fragments
      // beside 128 accumulators, two steps held), rings of 2 to 5 stages.
      using Tile = std::array<int64_t, 6>;
      const std::vector<Tile> k8_tiles =
          precision.input == Dtype::F64
              ? std::vector<Tile>{{64, 64, 16, 32, 32, 3},  {64, 128, 32, 32, 32, 3}, {32, 32, 16, 16, 16, 2},
                                  {128, 128, 32, 32, 64, 2}, {64, 128, 32, 32, 64, 2}, {128, 64, 32, 32, 64, 3},
                                  {32, 64, 16, 16, 64, 4}}
          : precision.input == Dtype::TF32
              ? std::vector<Tile>{{128, 128, 32, 64, 64, 3}, {128, 128, 16, 64, 64, 5}, {256, 128, 32, 64, 64, 3},
                                  {128, 256, 16, 64, 64, 2}, {64, 64, 32, 32, 32, 4},   {32, 32, 16, 16, 8, 2},
                                  {128, 64, 32, 64, 32, 4}}
              : std::vector<Tile>{};
      for (const auto& [bm, bn, bk, tm, tn, stages] : k8_tiles) {
        Config c = space.first_valid();
        c["mma"] = gemm_mma_index(GemmKernel::Dmma, precision), c["decomposition"] = 2, c["split"] = 1;
        c["sk_grid"] = 132, c["bm"] = bm, c["bn"] = bn, c["bk"] = bk, c["tm"] = tm, c["tn"] = tn, c["stages"] = stages;
        EXPECT_TRUE(space.valid(c)) << nlohmann::json(c).dump() << ": " << space.violation(c);
        configs.push_back(c);
      }
      for (const Config& config : configs)
        compilations.push_back(compile_on(pool, compiler, family, problem, config,
                                          space.canonical(config) + " " + layouts[l] + " " + to_string(precision)));
    }
  }
  expect_compiled_without_spills(compilations);
}

// wgmma tiles whose ring and accumulators leave room for two or more CTAs an SM compile to hold
// that many (GemmConfig::resident_ctas, passed to __launch_bounds__), without spills.
TEST(GemmCompile, WgmmaTilesWithRoomForSeveralCtasCompileToFitThem) {
  const GemmFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  const Problem problem =
      make_problem(family, {{"m", 4096}, {"n", 4096}, {"k", 512}, {"layout", "nt"}}, {Dtype::BF16, Dtype::F32, Dtype::F32});
  const ParameterSpace space = family.space(problem);
  const GemmShape shape = GemmShape::of(problem);
  std::vector<Compilation> compilations;
  std::vector<int64_t> resident;
  for (const nlohmann::json& j : {gemm_tma_parameters("persistent", 128, 128, 64, 128, 3, 1, 264, 2, 1),
                                  gemm_tma_parameters("data_parallel", 128, 128, 64, 128, 3, 1, 132, 8, 1),
                                  gemm_tma_parameters("data_parallel", 64, 128, 64, 64, 4, 1, 132, 1, 1),
                                  gemm_tma_parameters("stream_k", 64, 64, 64, 64, 4, 1, 396, 1, 1)}) {
    const Config config = space.from_json(j);
    resident.push_back(GemmConfig::from(config, problem.precision).resident_ctas(shape, problem.precision));
    EXPECT_GE(resident.back(), 2) << j.dump();
    compilations.push_back(compile_on(pool, compiler, family, problem, config, space.canonical(config)));
  }
  for (size_t i = 0; i < compilations.size(); ++i) {
    const CompiledKernel k = compilations[i].result.get();
    ASSERT_TRUE(k.ok) << compilations[i].what << "\n" << k.log;
    const ResourceUsage& u = k.usage.at(compilations[i].entry);
    const int64_t threads = GemmConfig::from(space.from_canonical(compilations[i].what), problem.precision).block_threads();
    EXPECT_LE(u.registers * threads * resident[i], 65536) << compilations[i].what << " regs=" << u.registers;
    EXPECT_EQ(u.spill_stores + u.spill_loads, 0) << compilations[i].what << "\n" << k.log;
  }
}

// The TMA configurations handed to family_bench (gemm_tma_keys.h) compile for sm_90a without
// spills or serialised wgmma: the producer warp's 32 threads lower the registers a thread may hold.
TEST(GemmCompile, TheTmaBenchmarkKeysCompileForSm90aWithoutSpills) {
  const GemmFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<Compilation> compilations;
  for (const auto& [shape, keys] : {std::pair{std::array<int64_t, 3>{4096, 4096, 4096}, &kGemmTmaSquareKeys},
                                    std::pair{std::array<int64_t, 3>{384, 384, 16384}, &kGemmTmaSkinnyKeys}}) {
    const Problem problem = make_problem(family, {{"m", shape[0]}, {"n", shape[1]}, {"k", shape[2]}, {"layout", "nt"}},
                                         {Dtype::BF16, Dtype::F32, Dtype::F32});
    const ParameterSpace space = family.space(problem);
    for (const std::string& key : *keys)
      compilations.push_back(compile_on(pool, compiler, family, problem, space.from_canonical(key), key));
  }
  expect_compiled_without_spills(compilations);
}

// The configurations GemmOnDevice.TmaConfigurations* verifies (gemm_tma_keys.h) compile for
// sm_90a without spills, in bf16 on the ragged batched shape and in f16 on the smallest.
TEST(GemmCompile, TheDeviceTestsTmaConfigurationsCompileForSm90aWithoutSpills) {
  const GemmFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<Compilation> compilations;
  for (const auto& [shape, input] : {std::pair{std::array<int64_t, 4>{300, 520, 1000, 3}, Dtype::BF16},
                                     std::pair{std::array<int64_t, 4>{77, 45, 56, 1}, Dtype::F16}}) {
    const Problem problem = make_problem(
        family, {{"m", shape[0]}, {"n", shape[1]}, {"k", shape[2]}, {"batch", shape[3]}, {"layout", "nt"}},
        {input, Dtype::F32, Dtype::F32});
    const ParameterSpace space = family.space(problem);
    for (const nlohmann::json& j : gemm_tma_verify_parameters()) {
      const Config config = space.from_json(j);
      compilations.push_back(compile_on(pool, compiler, family, problem, config,
                                        space.canonical(config) + " " + to_string(problem.precision)));
      EXPECT_EQ(compilations.back().entry, "gemm_wgmma_tma");
    }
  }
  expect_compiled_without_spills(compilations);
}

}  // namespace
}  // namespace ktune
