// Every SDDMM configuration, fp32 and fp64, must compile for the H100 (sm_90) without spilling:
// the search may pick any of them. K is compiled in, so the space is checked at the K that holds
// the most registers (1024: the longest K tiles) and at a K of no power of two, whose passes
// end inside a tile. NVRTC needs no GPU, so this runs in CI.
#include <gtest/gtest.h>

#include <future>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/sddmm/sddmm_family.h"

namespace ktune {
namespace {

struct Compilation {
  std::string what;
  std::string entry;
  std::future<CompiledKernel> result;
};

TEST(SddmmCompile, EveryConfigurationCompilesForSm90WithoutSpills) {
  const SddmmFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<Compilation> compilations;
  for (int64_t k : {1024, 36}) {
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      const Problem problem = Problem::of(dtype, {{"k", k}});
      for (const Config& config : family.space(problem).enumerate()) {
        KernelSource s = family.source(problem, config);
        const std::string entry = s.entries.at(0);
        CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"};
        compilations.push_back({family.space(problem).canonical(config) + " k=" + std::to_string(k) + " " +
                                    to_string(dtype),
                                entry, pool.submit([&compiler, request] { return compiler.compile(request); })});
      }
    }
  }
  for (Compilation& c : compilations) {
    const CompiledKernel k = c.result.get();
    ASSERT_TRUE(k.ok) << c.what << "\n" << k.log;
    ASSERT_EQ(k.usage.count(c.entry), 1u) << c.what;
    const ResourceUsage& u = k.usage.at(c.entry);
    EXPECT_GT(u.registers, 0) << c.what;
    EXPECT_EQ(u.spill_stores, 0) << c.what;
    EXPECT_EQ(u.spill_loads, 0) << c.what;
    EXPECT_LE(u.shared_bytes, 48 * 1024) << c.what;  // static shared memory of one block
    std::printf("%s regs=%d shared=%d\n", c.what.c_str(), u.registers, u.shared_bytes);
  }
}

}  // namespace
}  // namespace ktune
