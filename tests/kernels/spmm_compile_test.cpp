// Every SpMM kernel, fp32 and fp64, must compile for the H100 (sm_90) without spilling: the
// search may pick any. Spills depend on a kernel's shape (schedule, block, lanes, vec, K tile),
// not on K itself: each shape any K admits is compiled once, for the first K of the powers of
// two up to 1024 and 3 (no vector loads) that admits it. NVRTC needs no GPU.
#include <gtest/gtest.h>

#include <future>
#include <set>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/spmm/spmm_family.h"

namespace ktune {
namespace {

struct Compilation {
  std::string what;
  std::vector<std::string> entries;
  std::future<CompiledKernel> result;
};

TEST(SpmmCompile, EveryKernelCompilesForSm90WithoutSpills) {
  const SpmmFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<Compilation> compilations;
  std::set<std::pair<std::vector<int64_t>, Dtype>> shapes;
  for (int32_t k : {1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024}) {
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      const Problem p = Problem::of(dtype, {{"k", k}});
      for (const Config& config : family.space(p).enumerate()) {
        const std::vector<int64_t> shape = {config.at("schedule"), config.at("block"), config.at("lanes"),
                                            config.at("vec"), config.at("k_tile")};
        if (!shapes.insert({shape, dtype}).second) continue;  // items and threshold are host-side
        KernelSource s = family.source(p, config);
        CompileRequest request{std::move(s.code), s.entries, std::move(s.options), "sm_90"};
        compilations.push_back({family.space(p).canonical(config) + " k=" + std::to_string(k) + " " + to_string(dtype),
                                s.entries, pool.submit([&compiler, request] { return compiler.compile(request); })});
      }
    }
  }
  for (Compilation& c : compilations) {
    const CompiledKernel k = c.result.get();
    ASSERT_TRUE(k.ok) << c.what << "\n" << k.log;
    for (const std::string& entry : c.entries) {
      ASSERT_EQ(k.usage.count(entry), 1u) << c.what << " " << entry;
      const ResourceUsage& u = k.usage.at(entry);
      EXPECT_GT(u.registers, 0) << c.what << " " << entry;
      EXPECT_EQ(u.spill_stores, 0) << c.what << " " << entry << ": " << u.registers << " registers";
      EXPECT_EQ(u.spill_loads, 0) << c.what << " " << entry;
    }
  }
}

}  // namespace
}  // namespace ktune
