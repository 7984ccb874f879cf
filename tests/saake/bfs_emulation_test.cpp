// The emulator follows a BFS plan level by level on the real graph: every launch the loop runs
// is emulated (a path of n vertices takes n levels), and a direction-optimising hybrid is
// timed with the pull and the conversions it switches to on a skewed graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "gpu/compile_cache.h"
#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_family.h"
#include "model/saake/candidate_emulation.h"
#include "tests/kernels/bfs_graphs.h"

namespace ktune {
namespace {

// `edit`, when given, changes the prepared plan before it is emulated.
CandidatePrediction emulate(const CsrF64& graph, const Config& config, std::vector<int32_t> sources,
                            const CandidateEmulationOptions& options = {},
                            const std::function<void(LaunchPlan&)>& edit = {}) {
  static const NvrtcCompiler compiler;
  static CompileCache cache(compiler, 8, nullptr);
  const BfsFamily family;
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = graph;
  const Problem problem = Problem::of(Dtype::I32, {{"sources", sources}, {"parents", false}});
  KernelSource s = family.source(problem, config);
  const std::shared_ptr<const CompiledKernel> k =
      cache.get({std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"});
  if (!k->ok) throw std::runtime_error(k->log);
  LaunchPlan plan = family.prepare(w, problem, config);
  if (edit) edit(plan);
  return emulate_candidate(family, w, problem, config, plan, *k, spec_for_arch("sm_90"), options);
}

size_t launches_of(const CandidatePrediction& p, const std::string& entry) {
  return static_cast<size_t>(
      std::count_if(p.steps.begin(), p.steps.end(), [&](const StepEmulation& s) { return s.entry == entry; }));
}

TEST(BfsEmulation, EveryLevelOfAPathIsEmulated) {
  const CandidatePrediction p = emulate(testing_support::path_graph(60), bfs_space().first_valid(), {0});
  // The start, then 60 levels of a push and the level's end (the last finds nothing).
  EXPECT_EQ(p.steps.size(), 1u + 2 * 60);
  EXPECT_EQ(launches_of(p, "bfs_push_queue"), 60u);
  EXPECT_GT(p.microseconds, 0);
}

// A program is interpreted completely; past the options' limit the emulation gives up rather
// than spend minutes on a large graph, and the limit counts every launch the loop ran.
TEST(BfsEmulation, AProgramPastTheInstructionLimitIsTooLarge) {
  const CsrF64 path = testing_support::path_graph(60);
  const CandidatePrediction whole = emulate(path, bfs_space().first_valid(), {0});
  ASSERT_GT(whole.warp_instructions, 60u) << "every level runs at least one warp instruction";
  CandidateEmulationOptions options;
  options.max_program_warp_instructions = whole.warp_instructions;
  EXPECT_EQ(emulate(path, bfs_space().first_valid(), {0}, options).warp_instructions, whole.warp_instructions);
  options.max_program_warp_instructions = whole.warp_instructions / 2;
  EXPECT_THROW(emulate(path, bfs_space().first_valid(), {0}, options), EmulationTooLarge);
}

// Four sources on a ring, every traversal the same up to rotation, marked as alike units (BFS's
// plans do not mark them: the mechanism is the emulator's). Within the budget every source is
// followed, as without the units; past it, the sources followed stand for the rest where the
// plan without units is given up.
TEST(BfsEmulation, AlikeSourcesPastTheBudgetCountAsThoseFollowed) {
  std::vector<std::pair<int32_t, int32_t>> ring;
  for (int32_t v = 0; v < 64; ++v) ring.push_back({v, (v + 1) % 64});
  const CsrF64 graph = testing_support::undirected(64, ring);
  const Config config = bfs_space().first_valid();
  const std::vector<int32_t> sources = {0, 16, 32, 48};
  // bfs_program: the depths' fill, then per source its start and its loop.
  const auto with_units = [&](LaunchPlan& plan) {
    ASSERT_EQ(plan.program.size(), 1 + 2 * sources.size());
    plan.alike = AlikeUnits{1, 2, sources.size()};
  };

  // Every launch timed: each source's levels cost alike, as the units' mean assumes.
  CandidateEmulationOptions every;
  every.time_every_launch = true;
  const CandidatePrediction all = emulate(graph, config, sources, every, with_units);
  const CandidatePrediction plain = emulate(graph, config, sources, every);
  EXPECT_EQ(all.steps.size(), plain.steps.size());
  EXPECT_EQ(all.warp_instructions, plain.warp_instructions);
  EXPECT_DOUBLE_EQ(all.microseconds, plain.microseconds);

  const CandidatePrediction one = emulate(graph, config, {0}, every);
  CandidateEmulationOptions tight = every;
  tight.max_program_warp_instructions = all.warp_instructions / 2;
  EXPECT_THROW(emulate(graph, config, sources, tight), EmulationTooLarge);
  const CandidatePrediction sampled = emulate(graph, config, sources, tight, with_units);
  EXPECT_LE(sampled.warp_instructions, tight.max_program_warp_instructions);
  EXPECT_EQ(sampled.steps.size(), all.steps.size());
  EXPECT_NEAR(sampled.microseconds, all.microseconds, 0.05 * all.microseconds);
  EXPECT_NEAR(sampled.microseconds, 4 * one.microseconds, 0.05 * sampled.microseconds);
}

TEST(BfsEmulation, TheHybridSwitchesToAPullOnAStar) {
  Config c = bfs_space().first_valid();
  c["frontier"] = static_cast<int64_t>(BfsFrontier::Hybrid);
  c["direction"] = static_cast<int64_t>(BfsDirection::Optimising);
  c["alpha"] = 4;
  c["beta"] = 16;
  c["dense_shift"] = 4;
  const CandidatePrediction p = emulate(testing_support::star_graph(2000), c, {7});
  EXPECT_GE(launches_of(p, "bfs_pull"), 1u);
  EXPECT_GE(launches_of(p, "bfs_queue_to_bitmap"), 1u);
  EXPECT_GE(launches_of(p, "bfs_push_queue"), 1u);
}

}  // namespace
}  // namespace ktune
