// The emulator follows a graph program through its launches' native twins (kernels/launch_twin.h):
// only the sampled blocks of a twinned launch are interpreted, from the same state as when
// every block is, so the launches the program runs and the predicted time agree with the fully
// interpreted run, at a fraction of the interpretation; and a graph of more nonzeros than the
// instruction budget, which used to be refused untried, is followed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gpu/compile_cache.h"
#include "model/saake/candidate_emulation.h"
#include "tests/kernels/graph_cases.h"

namespace ktune {
namespace {

namespace gc = testing_support::graph_case;

// Every launch timed, through the twins and without them; and through the twins with the
// launches of a long run timed on a sample.
struct Emulated {
  CandidatePrediction twinned, interpreted, sampled;
};

Emulated emulate_both(const KernelFamily& family, const Workload& w, const Config& config) {
  static const NvrtcCompiler compiler;
  static CompileCache cache(compiler, 64, nullptr);
  const Problem problem = make_problem(family, nullptr, family.precisions().front());
  KernelSource s = family.source(problem, config);
  const std::shared_ptr<const CompiledKernel> k =
      cache.get({std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"});
  if (!k->ok) throw std::runtime_error(k->log);
  const LaunchPlan plan = family.prepare(w, problem, config);
  EXPECT_FALSE(plan.twins.empty()) << family.name();
  CandidateEmulationOptions options;
  options.time_every_launch = true;
  Emulated out;
  out.twinned = emulate_candidate(family, w, problem, config, plan, *k, spec_for_arch("sm_90"), options);
  options.time_every_launch = false;
  out.sampled = emulate_candidate(family, w, problem, config, plan, *k, spec_for_arch("sm_90"), options);
  options.time_every_launch = true;
  options.use_twins = false;
  out.interpreted = emulate_candidate(family, w, problem, config, plan, *k, spec_for_arch("sm_90"), options);
  return out;
}

// A configuration compiled for sm_90, and its plan on `w`.
struct Candidate {
  Config config;
  CompiledKernel kernel;
  LaunchPlan plan;
};
Candidate candidate(const KernelFamily& family, const Workload& w, const Problem& problem, const Config& config) {
  static const NvrtcCompiler compiler;
  Candidate c;
  c.config = config;
  KernelSource s = family.source(problem, c.config);
  c.kernel = compiler.compile({std::move(s.code), std::move(s.entries), std::move(s.options), "sm_90"});
  if (!c.kernel.ok) throw std::runtime_error(c.kernel.log);
  c.plan = family.prepare(w, problem, c.config);
  return c;
}
Candidate first_candidate(const KernelFamily& family, const Workload& w, const Problem& problem) {
  return candidate(family, w, problem, family.space(problem).first_valid());
}

std::vector<std::pair<std::string, int64_t>> launches_of(const CandidatePrediction& p) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const StepEmulation& s : p.steps) out.emplace_back(s.entry, s.blocks);
  return out;
}

class TwinnedEmulation : public ::testing::TestWithParam<std::string> {};

// A skewed R-MAT graph, where the sampled blocks are a few of many: the twins cut what is
// interpreted and the answer stays within a few percent. A BFS's levels, their modes and grids
// follow from the depths alone, so its launches are the same one for one; the other algorithms
// may take another of the orders their atomics allow (a relaxation, a label's hop, a sum; CC's
// twins let a round's threads read before any writes, as the device's do, where the interpreter
// runs one block after another), so their iterations may differ by a few, each costing what it
// did and interpreting less. Timing a long run's launches on
// a sample changes neither the launches nor, much, the time (SSSP's late passes of a block or
// two run past the first 32 of their size: 0-12% here).
TEST_P(TwinnedEmulation, AgreesWithEveryBlockInterpreted) {
  const KernelFamily& family = *find_family(GetParam());
  const Workload w = gc::graph(generate_rmat(11, 8, 3));
  const Problem problem = make_problem(family, nullptr, family.precisions().front());
  SpaceRng rng(5);
  std::vector<Config> configs = family.space(problem).sample(rng, 5);
  configs.insert(configs.begin(), family.space(problem).first_valid());
  uint64_t twinned = 0, interpreted = 0;
  for (const Config& config : configs) {
    const std::string what = family.space(problem).canonical(config);
    const Emulated e = emulate_both(family, w, config);
    const auto per_turn = [](const CandidatePrediction& p) { return p.microseconds / (1 + p.loop_iterations); };
    if (family.name() == "bfs") {
      EXPECT_EQ(launches_of(e.twinned), launches_of(e.interpreted)) << what;
      EXPECT_NEAR(e.twinned.microseconds, e.interpreted.microseconds, 0.1 * e.interpreted.microseconds) << what;
    } else {
      EXPECT_NEAR(e.twinned.loop_iterations, e.interpreted.loop_iterations, 0.25 * e.interpreted.loop_iterations + 2)
          << what;
      EXPECT_NEAR(per_turn(e.twinned), per_turn(e.interpreted), 0.1 * per_turn(e.interpreted)) << what;
    }
    // Where the orders leave other labels, the same blocks run a few more or fewer instructions
    // (a grid of one block is its own sample: nothing to cut).
    if (e.twinned.loop_iterations <= e.interpreted.loop_iterations) {
      EXPECT_LE(e.twinned.warp_instructions, 1.05 * static_cast<double>(e.interpreted.warp_instructions)) << what;
    }
    EXPECT_EQ(launches_of(e.sampled), launches_of(e.twinned)) << what;
    EXPECT_NEAR(e.sampled.microseconds, e.twinned.microseconds, 0.15 * e.twinned.microseconds) << what;
    twinned += e.twinned.warp_instructions;
    interpreted += e.interpreted.warp_instructions;
  }
  EXPECT_LT(twinned, interpreted);
}

// Without twins a program over more nonzeros than the budget is refused before anything is
// interpreted; with them only the samples count against it. A uniform graph: no hub whose row
// one sampled block walks alone, so a block or two a launch is little of the graph.
TEST_P(TwinnedEmulation, AGraphPastTheBudgetIsFollowedBySamples) {
  const KernelFamily& family = *find_family(GetParam());
  const Workload w = gc::graph(generate_uniform(1 << 15, 1 << 15, 8, 9));
  const Problem problem = make_problem(family, nullptr, family.precisions().front());
  const Candidate c = first_candidate(family, w, problem);
  const Config& config = c.config;
  const CompiledKernel& k = c.kernel;
  const LaunchPlan& plan = c.plan;
  CandidateEmulationOptions options;
  options.samples = SamplePlan{1, 1, 1, 1, 1};  // a block or two a launch
  options.max_traced_warp_instructions_per_launch = 1 << 10;
  const uint64_t sampled =
      emulate_candidate(family, w, problem, config, plan, k, spec_for_arch("sm_90"), options).warp_instructions;
  ASSERT_LT(sampled, static_cast<uint64_t>(w.matrix.nnz())) << "the samples alone outgrow the graph";
  options.max_program_warp_instructions = sampled;
  EXPECT_GT(emulate_candidate(family, w, problem, config, plan, k, spec_for_arch("sm_90"), options).microseconds, 0);
  options.use_twins = false;
  EXPECT_THROW(emulate_candidate(family, w, problem, config, plan, k, spec_for_arch("sm_90"), options), EmulationTooLarge);
}

// A path's BFS runs a level of one block per vertex: past the first few, the levels take the
// timing of those timed and still run, so the launches and the time are those of timing each.
TEST(LaunchTimings, ALongRunOfAlikeLaunchesIsTimedOnASample) {
  const KernelFamily& bfs = *find_family("bfs");
  const Workload w = gc::graph(gc::path(600));
  const Problem problem = make_problem(bfs, {{"sources", {0}}}, bfs.precisions().front());
  const Candidate c = first_candidate(bfs, w, problem);
  const Config& config = c.config;
  const CompiledKernel& k = c.kernel;
  const LaunchPlan& plan = c.plan;
  CandidateEmulationOptions options;
  const CandidatePrediction sampled = emulate_candidate(bfs, w, problem, config, plan, k, spec_for_arch("sm_90"), options);
  options.time_every_launch = true;
  const CandidatePrediction every = emulate_candidate(bfs, w, problem, config, plan, k, spec_for_arch("sm_90"), options);
  EXPECT_EQ(launches_of(sampled), launches_of(every));
  EXPECT_EQ(sampled.loop_iterations, 600);
  EXPECT_NEAR(sampled.microseconds, every.microseconds, 0.02 * every.microseconds);
  EXPECT_LT(sampled.emulate_seconds, every.emulate_seconds / 4);
}

// Union-find's edge pass on a star whose hub has the largest id: its twin sees 999 swaps queue
// on the hub in the first round (kernels/cc/cc_contention.h), which no sampled block shows, and
// the emulator charges them as the first cost model does.
TEST(QueuedSwaps, TheTwinsCountIsChargedToItsLaunch) {
  const KernelFamily& cc = *find_family("cc");
  const Workload w = gc::graph(gc::star(1001));
  const Problem problem = make_problem(cc, nullptr, cc.precisions().front());
  const Config config = {{"algorithm", 2}, {"schedule", 1}, {"block", 64}, {"lanes", 1}, {"items", 1}, {"jumps", 0}};
  const Candidate c = candidate(cc, w, problem, config);
  const CompiledKernel& k = c.kernel;
  const LaunchPlan& plan = c.plan;
  GpuSpec gpu = spec_for_arch("sm_90");
  ASSERT_GT(gpu.queued_cas_ns, 0);
  const CandidatePrediction charged = emulate_candidate(cc, w, problem, config, plan, k, gpu, {});
  const double per_swap_ns = gpu.queued_cas_ns;
  gpu.queued_cas_ns = 0;
  const CandidatePrediction free = emulate_candidate(cc, w, problem, config, plan, k, gpu, {});
  EXPECT_NEAR(charged.microseconds - free.microseconds, 999 * per_swap_ns / 1e3, 1e-6);
  ASSERT_EQ(charged.steps.size(), 3u);  // init, the edge pass, the compression
  EXPECT_NEAR(charged.steps[1].prediction.microseconds - free.steps[1].prediction.microseconds,
              999 * per_swap_ns / 1e3, 1e-6);
}

// Label propagation along a path of 300 (ids in order), a thread an edge: the device's threads of
// a pass read their ends' labels at once, so vertex 0's label moves one hop a pass and the loop
// runs the path's length (and one pass that finds nothing); one thread after another would carry
// it the whole way in one pass.
TEST(TwinRounds, ALabelMovesOneHopAPassWhenEveryEdgeReadsAtOnce) {
  const KernelFamily& cc = *find_family("cc");
  const Workload w = gc::graph(gc::path(300));
  const Problem problem = make_problem(cc, nullptr, cc.precisions().front());
  const Config config = {{"algorithm", 0}, {"schedule", 1}, {"block", 64}, {"lanes", 1}, {"items", 1}, {"jumps", 0}};
  const Candidate c = candidate(cc, w, problem, config);
  EXPECT_EQ(emulate_candidate(cc, w, problem, config, c.plan, c.kernel, spec_for_arch("sm_90"), {}).loop_iterations, 300);
}

INSTANTIATE_TEST_SUITE_P(GraphFamilies, TwinnedEmulation, ::testing::Values("bfs", "sssp", "pagerank", "cc"));

}  // namespace
}  // namespace ktune
