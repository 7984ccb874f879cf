// CI's check of the SSSP kernels without a GPU: for each algorithm, schedule and batch its first
// configuration, plus a seeded draw of the space, compile for sm_90 without spills, and the
// PTX interpreter runs each one's whole plan (every pass of every source) on small weighted
// graphs; its distances must pass the verifier against Dijkstra (i32 exactly on every other
// configuration, f32 within the bound on the rest). A wrong kernel must fail.
#include <gtest/gtest.h>

#include <cstring>
#include <future>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/sssp/sssp_config.h"
#include "kernels/sssp/sssp_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/sampled_configs.h"
#include "tests/kernels/sssp_graphs.h"

namespace ktune {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

namespace cases = testing_support::sssp_case;

std::vector<Config> checked_configurations() {
  return testing_support::sampled_configs(sssp_space(), {"algorithm", "schedule", "batch"}, 10, 24);
}

Problem problem_of(Dtype dtype, const cases::SsspCase& test) {
  return make_problem(SsspFamily(), {{"sources", test.sources}, {"weights", test.weights}},
                      Precision::uniform(dtype));
}

// The first failure of the module's plan for `config` on the cases its dtype takes, or "" when
// every one passes the verifier.
std::string first_failure(const ptx::PtxModule& module, const Config& config, Dtype dtype) {
  const SsspFamily family;
  for (const cases::SsspCase& test : cases::all()) {
    if (test.float_only && dtype != Dtype::F32) continue;
    Workload w;
    w.kind = WorkloadKind::Graph;
    w.matrix = test.graph;
    const Problem problem = problem_of(dtype, test);
    family.check_problem(w, problem);
    const LaunchPlan plan = family.prepare(w, problem, config);
    const Reference expected = family.reference(w, problem);
    const CheckData data = check_data_of(plan);
    for (const CounterGrids grids : {CounterGrids::FromCounter, CounterGrids::Wave}) {
      const Reference got = interp::compute_outputs(module, plan, grids);
      for (const PlanOutput& o : plan.outputs) {
        const Verdict v =
            family.verify(problem, o, output_bytes(got.at(o.buffer), o.dtype), expected.at(o.buffer), data);
        if (!v.ok) return test.name + (grids == CounterGrids::Wave ? " (striding wave): " : ": ") + v.message;
      }
    }
  }
  return "";
}

CompileRequest request_of(const Config& config, Dtype dtype) {
  KernelSource s = SsspFamily().source(Problem::of(dtype, {}), config);
  return {std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"};
}

TEST(SsspInterp, EveryCheckedConfigurationCompilesAndComputesTheReference) {
  const NvrtcCompiler compiler;
  ThreadPool pool;
  const std::vector<Config> configs = checked_configurations();
  ASSERT_LE(configs.size(), 40u);
  std::vector<std::future<CompiledKernel>> compiled;
  for (size_t i = 0; i < configs.size(); ++i) {
    const CompileRequest request = request_of(configs[i], i % 2 ? Dtype::F32 : Dtype::I32);
    compiled.push_back(pool.submit([&compiler, request] { return compiler.compile(request); }));
  }
  for (size_t i = 0; i < configs.size(); ++i) {
    const Dtype dtype = i % 2 ? Dtype::F32 : Dtype::I32;
    const std::string what = sssp_space().canonical(configs[i]) + (dtype == Dtype::F32 ? " f32" : " i32");
    const CompiledKernel k = compiled[i].get();
    ASSERT_TRUE(k.ok) << what << "\n" << k.log;
    for (const auto& [entry, usage] : k.usage) {
      EXPECT_EQ(usage.spill_stores, 0) << what << " " << entry;
      EXPECT_EQ(usage.spill_loads, 0) << what << " " << entry;
    }
    EXPECT_EQ(first_failure(ptx::parse_ptx(k.ptx), configs[i], dtype), "") << what;
  }
}

// A kernel with `from` (which must occur in its source) replaced by `to`, run on every case.
bool edited_verifies(const Config& config, Dtype dtype, const std::string& from, const std::string& to) {
  CompileRequest request = request_of(config, dtype);
  const size_t at = request.code.find(from);
  if (at == std::string::npos) throw std::logic_error("no '" + from + "' in the source");
  request.code.replace(at, from.size(), to);
  const CompiledKernel k = NvrtcCompiler().compile(request);
  if (!k.ok) throw std::runtime_error(k.log);
  return first_failure(ptx::parse_ptx(k.ptx), config, dtype).empty();
}

TEST(SsspInterp, AWrongKernelFailsVerification) {
  Config delta = sssp_space().first_valid();
  delta["algorithm"] = static_cast<int64_t>(SsspAlgorithm::DeltaStepping);
  delta["schedule"] = static_cast<int64_t>(SsspBalance::Warp);
  delta["delta"] = 2;
  EXPECT_TRUE(edited_verifies(delta, Dtype::I32, "weight[e]", "weight[e]"));
  // An edge's weight read off by one edge; improved vertices dropped from the queue; vertices
  // the sweep takes out of the far set but never queues.
  EXPECT_FALSE(edited_verifies(delta, Dtype::I32, "weight[e]", "weight[e > 0 ? e - 1 : e]"));
  EXPECT_FALSE(edited_verifies(delta, Dtype::F32, "next[queue_slot(state + STATE_NEXT",
                               "if (w % 7 != 3) next[queue_slot(state + STATE_NEXT"));
  EXPECT_FALSE(edited_verifies(delta, Dtype::I32, "pending[v] = 0;",
                               "pending[v] = 0; if (v % 5 == 2) { atomicAdd(state + STATE_FAR, -1); return; }"));
}

}  // namespace
}  // namespace ktune
