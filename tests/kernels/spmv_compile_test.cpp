// Every SpMV configuration, fp32 and fp64, must compile for the H100 (sm_90) without spilling:
// the search may pick any of them. NVRTC needs no GPU, so this runs in CI.
#include <gtest/gtest.h>

#include <future>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/spmv/spmv_family.h"

namespace ktune {
namespace {

struct Compilation {
  std::string what;
  std::string entry;
  std::future<CompiledKernel> result;
};

TEST(SpmvCompile, EveryConfigurationCompilesForSm90WithoutSpills) {
  const SpmvFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<Compilation> compilations;
  for (const Config& config : family.space({}).enumerate()) {
    for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
      KernelSource s = family.source(Problem::of(dtype), config);
      const std::string entry = s.entries.at(0);
      CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options),
                             "sm_90"};
      compilations.push_back(
          {family.space({}).canonical(config) + " " + to_string(dtype), entry,
           pool.submit([&compiler, request] { return compiler.compile(request); })});
    }
  }
  for (Compilation& c : compilations) {
    const CompiledKernel k = c.result.get();
    ASSERT_TRUE(k.ok) << c.what << "\n" << k.log;
    EXPECT_FALSE(k.cubin.empty()) << c.what;
    ASSERT_EQ(k.usage.count(c.entry), 1u) << c.what;
    const ResourceUsage& u = k.usage.at(c.entry);
    EXPECT_GT(u.registers, 0) << c.what;
    EXPECT_EQ(u.spill_stores, 0) << c.what;
    EXPECT_EQ(u.spill_loads, 0) << c.what;
    EXPECT_LE(u.shared_bytes, 48 * 1024) << c.what;  // static shared memory of one block
  }
}

}  // namespace
}  // namespace ktune
