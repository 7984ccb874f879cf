// CI's check of the BFS kernels without a GPU: a seeded sample of the space plus, for each
// load-balancing schedule, a push over the queue, a pull and a direction-optimising hybrid
// (which switches representation and direction on these graphs) compile for sm_90 without
// spills, and the PTX interpreter runs each one's whole plan (every level of every source) on
// small graphs; its depths must equal the host BFS and its parents pass the verifier.
#include <gtest/gtest.h>

#include <cstring>
#include <future>

#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/bfs_graphs.h"
#include "tests/kernels/plan_outputs.h"

namespace ktune {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

using testing_support::bfs_cases;

Config config_of(BfsFrontier frontier, BfsDirection direction, BfsBalance balance) {
  const bool optimising = direction == BfsDirection::Optimising;
  return {{"frontier", static_cast<int64_t>(frontier)},
          {"direction", static_cast<int64_t>(direction)},
          {"schedule", static_cast<int64_t>(balance)},
          {"block", 128},
          {"coarsen", 2},
          {"dense_shift", frontier == BfsFrontier::Hybrid ? 4 : 2},
          {"alpha", optimising ? 4 : 2},
          {"beta", optimising ? 16 : 2}};
}

// The configurations checked: one of each kind per schedule, then a seeded draw.
std::vector<Config> checked_configurations() {
  std::vector<Config> configs;
  for (int b = 0; b <= static_cast<int>(BfsBalance::Tile); ++b) {
    const auto balance = static_cast<BfsBalance>(b);
    configs.push_back(config_of(BfsFrontier::Queue, BfsDirection::Push, balance));
    configs.push_back(config_of(BfsFrontier::Bitmap, BfsDirection::Pull, balance));
    configs.push_back(config_of(BfsFrontier::Hybrid, BfsDirection::Optimising, balance));
  }
  SpaceRng rng(24);
  for (const Config& c : bfs_space().sample(rng, 16)) configs.push_back(c);
  return configs;
}

struct Compilation {
  Config config;
  Problem problem;
  std::future<CompiledKernel> result;
};

TEST(BfsInterp, EveryCheckedConfigurationCompilesAndComputesTheReference) {
  const BfsFamily family;
  const NvrtcCompiler compiler;
  ThreadPool pool;
  std::vector<Compilation> compilations;
  const std::vector<Config> configs = checked_configurations();
  for (size_t i = 0; i < configs.size(); ++i) {
    // Parents on every other configuration: both forms of the kernels are compiled and run.
    Problem problem = Problem::of(Dtype::I32, {{"sources", nlohmann::json::array()}, {"parents", i % 2 == 1}});
    KernelSource s = family.source(problem, configs[i]);
    CompileRequest request{std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"};
    compilations.push_back(
        {configs[i], problem, pool.submit([&compiler, request] { return compiler.compile(request); })});
  }
  int pulled = 0, switched = 0;
  for (Compilation& c : compilations) {
    const std::string what = bfs_space().canonical(c.config);
    const CompiledKernel k = c.result.get();
    ASSERT_TRUE(k.ok) << what << "\n" << k.log;
    for (const auto& [entry, usage] : k.usage) {
      EXPECT_EQ(usage.spill_stores, 0) << what << " " << entry;
      EXPECT_EQ(usage.spill_loads, 0) << what << " " << entry;
    }
    const ptx::PtxModule module = ptx::parse_ptx(k.ptx);
    const BfsConfig typed = BfsConfig::from(c.config);
    pulled += typed.pulls();
    switched += typed.converts();
    for (const auto& test : bfs_cases()) {
      SCOPED_TRACE(what + " on " + test.name);
      Workload w;
      w.kind = WorkloadKind::Graph;
      w.matrix = test.graph;
      Problem problem = c.problem;
      problem.params["sources"] = test.sources;
      const LaunchPlan plan = family.prepare(w, problem, c.config);
      const Reference expected = family.reference(w, problem);
      const CheckData data = check_data_of(plan);
      for (const CounterGrids grids : {CounterGrids::FromCounter, CounterGrids::Wave}) {
        const Reference got = interp::compute_outputs(module, plan, grids);
        for (const PlanOutput& o : plan.outputs) {
          const Verdict v =
              family.verify(problem, o, output_bytes(got.at(o.buffer), Dtype::I32), expected.at(o.buffer), data);
          EXPECT_TRUE(v.ok) << o.buffer << (grids == CounterGrids::Wave ? " (striding wave)" : "") << ": " << v.message;
        }
      }
    }
  }
  EXPECT_GE(pulled, 10);
  EXPECT_GE(switched, 5);
}

// Whether `config`, its source edited (`from`, which must occur, replaced by `to`), passes the
// verifier on every case.
bool verifies_everywhere(const Config& config, bool parents, const std::string& from, const std::string& to) {
  const BfsFamily family;
  Problem problem = Problem::of(Dtype::I32, {{"sources", nlohmann::json::array()}, {"parents", parents}});
  KernelSource s = family.source(problem, config);
  const size_t at = s.code.find(from);
  if (at == std::string::npos) throw std::logic_error("no '" + from + "' in the source");
  s.code.replace(at, from.size(), to);
  const CompiledKernel k = NvrtcCompiler().compile({s.code, s.entries, s.options, "sm_90"});
  if (!k.ok) throw std::runtime_error(k.log);
  const ptx::PtxModule module = ptx::parse_ptx(k.ptx);
  bool ok = true;
  for (const auto& test : bfs_cases()) {
    Workload w;
    w.matrix = test.graph;
    problem.params["sources"] = test.sources;
    const LaunchPlan plan = family.prepare(w, problem, config);
    const Reference expected = family.reference(w, problem);
    const Reference got = interp::compute_outputs(module, plan);
    const CheckData data = check_data_of(plan);
    for (const PlanOutput& o : plan.outputs)
      ok = ok && family.verify(problem, o, output_bytes(got.at(o.buffer), Dtype::I32), expected.at(o.buffer), data).ok;
  }
  return ok;
}

// Each kernel the direction-optimising hybrid runs matters to its answer on these graphs: a
// wrong one (of the claim, the pull, either conversion, or the parents) fails verification.
TEST(BfsInterp, AWrongKernelFailsVerification) {
  const Config hybrid = config_of(BfsFrontier::Hybrid, BfsDirection::Optimising, BfsBalance::Warp);
  EXPECT_TRUE(verifies_everywhere(hybrid, true, "KT_UNREACHED", "KT_UNREACHED"));
  EXPECT_FALSE(verifies_everywhere(hybrid, false, "(unsigned)level) ==", "(unsigned)(level + (v % 5 == 4))) =="));
  EXPECT_FALSE(verifies_everywhere(hybrid, false, "if (!has_bit(bits, u)) return false;",
                                   "if (has_bit(bits, u)) return false;"));
  EXPECT_FALSE(verifies_everywhere(hybrid, false, "atomicOr(bits + (v >> 5), 1u << (v & 31));", ";"));
  EXPECT_FALSE(verifies_everywhere(hybrid, false, "if (has_bit(bits, v)) next[",
                                   "if (has_bit(bits, v) && (v & 31) != 5) next["));
  EXPECT_FALSE(verifies_everywhere(hybrid, true, "parent[w] = v;", "parent[w] = w;"));
  EXPECT_FALSE(verifies_everywhere(hybrid, true, "parent[v] = u;", "parent[v] = v;"));
}

}  // namespace
}  // namespace ktune
