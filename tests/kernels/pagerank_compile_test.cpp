// The PageRank kernels, f32 and f64, must compile for the H100 (sm_90) without spilling: the
// first configuration of each direction and a seeded sample of the rest (the same sample the
// interpreter runs, tests/interp/pagerank_interp_test.cpp).
#include <gtest/gtest.h>

#include <future>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/pagerank/pagerank_family.h"
#include "tests/kernels/sampled_configs.h"

namespace ktune {
namespace {

TEST(PagerankCompile, SampledConfigurationsCompileForSm90WithoutSpills) {
  const PagerankFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  struct Compilation {
    std::string what;
    size_t entries;
    std::future<CompiledKernel> result;
  };
  std::vector<Compilation> compilations;
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const Problem problem = make_problem(family, nullptr, Precision::uniform(dtype));
    for (const Config& config : testing_support::sampled_configs(family.space(problem), {"direction"}, 24, 13)) {
      KernelSource s = family.source(problem, config);
      const size_t entries = s.entries.size();
      CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"};
      compilations.push_back({family.space(problem).canonical(config) + " " + to_string(dtype), entries,
                              pool.submit([&compiler, request] { return compiler.compile(request); })});
    }
  }
  for (Compilation& c : compilations) {
    const std::string& what = c.what;
    const CompiledKernel k = c.result.get();
    ASSERT_TRUE(k.ok) << what << "\n" << k.log;
    // init, the edge pass and its companions, the check: every entry the family names.
    EXPECT_GE(c.entries, 4u) << what;
    EXPECT_EQ(k.usage.size(), c.entries) << what;
    for (const auto& [entry, u] : k.usage) {
      EXPECT_EQ(u.spill_stores, 0) << what << " " << entry;
      EXPECT_EQ(u.spill_loads, 0) << what << " " << entry;
    }
  }
}

}  // namespace
}  // namespace ktune
