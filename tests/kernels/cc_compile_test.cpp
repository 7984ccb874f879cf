// The connected-components kernels must compile for the H100 (sm_90) without spilling: the
// first configuration of every algorithm and schedule and a seeded sample of the rest (the
// same sample the interpreter runs, tests/interp/cc_interp_test.cpp).
#include <gtest/gtest.h>

#include <future>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/cc/cc_family.h"
#include "tests/kernels/sampled_configs.h"

namespace ktune {
namespace {

TEST(CcCompile, SampledConfigurationsCompileForSm90WithoutSpills) {
  const CcFamily family;
  const Problem problem = Problem::of(Dtype::I32);
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<std::pair<std::string, std::future<CompiledKernel>>> compilations;
  for (const Config& config :
       testing_support::sampled_configs(family.space(problem), {"algorithm", "schedule"}, 40, 11)) {
    KernelSource s = family.source(problem, config);
    CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"};
    compilations.emplace_back(family.space(problem).canonical(config),
                              pool.submit([&compiler, request] { return compiler.compile(request); }));
  }
  for (auto& [what, result] : compilations) {
    const CompiledKernel k = result.get();
    ASSERT_TRUE(k.ok) << what << "\n" << k.log;
    EXPECT_GE(k.usage.size(), 2u) << what;  // init and the edge pass, and jumping where it jumps
    for (const auto& [entry, u] : k.usage) {
      EXPECT_EQ(u.spill_stores, 0) << what << " " << entry;
      EXPECT_EQ(u.spill_loads, 0) << what << " " << entry;
    }
  }
}

}  // namespace
}  // namespace ktune
