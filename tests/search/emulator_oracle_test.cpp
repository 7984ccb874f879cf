// The SAAKE oracle over the emulator: views from real emulations of compiled SpMV candidates,
// occupancy levels from ptxas usage, and the first model taking over for a candidate the
// emulator cannot take, without throwing.
#include "search/emulator_oracle.h"

#include <gtest/gtest.h>

#include "gpu/compile_cache.h"
#include "gpu/nvrtc_compiler.h"
#include "model/resource.h"
#include "search/first_model_oracle.h"
#include "search/saake_walk.h"
#include "search/tuner.h"
#include "workload/generators.h"

namespace ktune {
namespace {

struct OracleFixture : ::testing::Test {
  NvrtcCompiler compiler;
  CompileCache cache{compiler, 64, nullptr};
  ThreadPool pool{2};
  const KernelFamily& family = *find_family("spmv");
  GpuSpec gpu = spec_for_arch("sm_90");
  Workload w;
  OracleFixture() { w.matrix = generate_stencil_2d(64); }
  Tuner tuner() {
    TunerContext ctx;
    ctx.compile_cache = &cache;
    ctx.compile_pool = &pool;
    ctx.gpu = gpu;
    return Tuner(ctx);
  }
  ResourceUsage assumed() {
    ResourceUsage u;
    u.registers = 32;
    return u;
  }
  EmulatorOracle::Compile real_compile() {
    return [this](const Config& c) { return cache.get(tuner().compile_request(family, Problem::of(Dtype::F32), c)); };
  }
  Config first_valid() { return family.space({}).enumerate().front(); }
  // Compiles for `f`'s problem `p`, counting the compiles in `count`.
  EmulatorOracle::Compile counting_compile(const KernelFamily& f, const Problem& p, int& count) {
    return [this, &f, p, &count](const Config& c) {
      ++count;
      return cache.get(tuner().compile_request(f, p, c));
    };
  }
};

TEST_F(OracleFixture, ViewsAreTheEmulationsInResourceNames) {
  FirstModelOracle first(family, w, Problem::of(Dtype::F32), gpu, assumed());
  EmulatorOracle oracle(family, w, Problem::of(Dtype::F32), gpu, real_compile(), first);
  const Config c = first_valid();
  const std::optional<OracleView> v = oracle.evaluate(c);
  ASSERT_TRUE(v);
  const CandidatePrediction* p = oracle.emulation(c);
  ASSERT_NE(p, nullptr) << "fell back: " << oracle.fallbacks().begin()->second;
  EXPECT_TRUE(oracle.fallbacks().empty());
  EXPECT_DOUBLE_EQ(v->time_us, p->microseconds);
  EXPECT_DOUBLE_EQ(v->occupancy, p->occupancy);
  EXPECT_EQ(v->bottleneck.resource, resource_name(p->bottleneck));
  EXPECT_EQ(v->utilisation.size(), kResourceCount);
  EXPECT_DOUBLE_EQ(v->transactions.at("dram"), p->transactions[static_cast<size_t>(Resource::Dram)]);
  EXPECT_GT(v->transactions.at("dram"), 0) << "SpMV reads its matrix from DRAM";
  // Levels below its own occupancy, largest first, one block's warps apart.
  const std::vector<double> levels = oracle.lower_occupancies(c);
  for (size_t i = 0; i < levels.size(); ++i) {
    EXPECT_LT(levels[i], v->occupancy + 1e-12);
    if (i > 0) {
      EXPECT_LT(levels[i], levels[i - 1]);
    }
  }
  if (!levels.empty()) {
    const std::optional<WalkBottleneck> b = oracle.bottleneck_at(c, levels.back());
    ASSERT_TRUE(b);
    EXPECT_TRUE(resource_from_name(b->resource).has_value()) << b->resource;
  }
}

TEST_F(OracleFixture, ACandidateTheEmulatorCannotTakeIsAnsweredByTheFirstModel) {
  FirstModelOracle first(family, w, Problem::of(Dtype::F32), gpu, assumed());
  FirstModelOracle reference(family, w, Problem::of(Dtype::F32), gpu, assumed());
  // Compiled "ok" but with PTX the parser cannot read and no ptxas usage.
  auto broken = [](const Config&) {
    auto k = std::make_shared<CompiledKernel>();
    k->ok = true;
    k->ptx = "this is not PTX";
    return std::shared_ptr<const CompiledKernel>(k);
  };
  std::vector<std::string> logged;
  EmulatorOracle oracle(family, w, Problem::of(Dtype::F32), gpu, broken, first, [&](const std::string& m) { logged.push_back(m); });
  const Config c = first_valid();
  std::optional<OracleView> v;
  ASSERT_NO_THROW(v = oracle.evaluate(c));
  ASSERT_TRUE(v);
  EXPECT_EQ(oracle.emulation(c), nullptr);
  EXPECT_DOUBLE_EQ(v->time_us, reference.evaluate(c)->time_us);
  EXPECT_EQ(oracle.fallbacks().count(family.space({}).canonical(c)), 1u);
  EXPECT_EQ(logged.size(), 1u);
  EXPECT_EQ(oracle.lower_occupancies(c), reference.lower_occupancies(c));
  // A whole walk over broken candidates still ends, on the first model's answers.
  EXPECT_NO_THROW(saake_search(oracle, family.canonical_moves({})));
}

TEST_F(OracleFixture, TheWalkOnTheEmulatorEndsOnAValidConfiguration) {
  TuneRequest r;
  r.family = &family;
  const std::optional<Config> walked = tuner().model_walk(w, r);
  ASSERT_TRUE(walked);
  EXPECT_TRUE(family.space({}).valid(*walked)) << family.space({}).violation(*walked);
}

TEST_F(OracleFixture, AConfigurationTheInterpreterCannotRunIsNeverCompiledForIt) {
  const KernelFamily& gemm = *find_family("gemm");
  const Workload dense{WorkloadKind::Dense, {}};
  for (const Dtype input : {Dtype::BF16, Dtype::F32, Dtype::F64}) {
    const Dtype accumulate = input == Dtype::F64 ? Dtype::F64 : Dtype::F32;
    const Problem p = make_problem(gemm, {{"m", 64}, {"n", 64}, {"k", 64}}, {input, accumulate, accumulate});
    const Config config = gemm.space(p).first_valid();
    int compiles = 0;
    FirstModelOracle first(gemm, dense, p, gpu, assumed());
    EmulatorOracle oracle(gemm, dense, p, gpu, counting_compile(gemm, p, compiles), first);
    ASSERT_TRUE(oracle.evaluate(config));
    // bf16 runs on mma.sync, which the interpreter lacks; f32's SIMT kernel it runs; f64's
    // first configuration is SIMT too, but its space's DMMA ones are not emulated, so neither is it.
    EXPECT_EQ(compiles, input == Dtype::F32 ? 1 : 0) << to_string(input);
    EXPECT_EQ(gemm.emulable(p, config), input == Dtype::F32);
  }
}

// Past its emulation budget an oracle answers from the first model, naming why; what it emulated
// before stays its emulation.
TEST_F(OracleFixture, AnOraclePastItsEmulationBudgetAsksTheFirstModel) {
  FirstModelOracle first(family, w, Problem::of(Dtype::F32), gpu, assumed());
  EmulatorOracle oracle(family, w, Problem::of(Dtype::F32), gpu, real_compile(), first);
  oracle.set_emulation_budget(1);
  const std::vector<Config> configs = family.space({}).enumerate();
  ASSERT_GE(configs.size(), 2u);
  ASSERT_TRUE(oracle.evaluate(configs[0]));
  ASSERT_TRUE(oracle.evaluate(configs[1]));
  EXPECT_NE(oracle.emulation(configs[0]), nullptr);
  EXPECT_EQ(oracle.emulation(configs[1]), nullptr);
  ASSERT_EQ(oracle.fallbacks().size(), 1u);
  EXPECT_NE(oracle.fallbacks().begin()->second.find("1 emulations are spent"), std::string::npos)
      << oracle.fallbacks().begin()->second;
}

// So it does past its budget of interpreted warp instructions: the first emulation, however long,
// runs; none starts after it has spent the budget.
TEST_F(OracleFixture, AnOraclePastItsInterpretedInstructionsAsksTheFirstModel) {
  FirstModelOracle first(family, w, Problem::of(Dtype::F32), gpu, assumed());
  EmulatorOracle oracle(family, w, Problem::of(Dtype::F32), gpu, real_compile(), first);
  oracle.set_emulation_budget(100, 1);
  const std::vector<Config> configs = family.space({}).enumerate();
  ASSERT_GE(configs.size(), 2u);
  ASSERT_TRUE(oracle.evaluate(configs[0]));
  ASSERT_TRUE(oracle.evaluate(configs[1]));
  ASSERT_NE(oracle.emulation(configs[0]), nullptr);
  EXPECT_GT(oracle.emulation(configs[0])->warp_instructions, 1u);
  EXPECT_EQ(oracle.emulation(configs[1]), nullptr);
  ASSERT_EQ(oracle.fallbacks().size(), 1u);
  EXPECT_NE(oracle.fallbacks().begin()->second.find("1 interpreted warp instructions are spent"), std::string::npos)
      << oracle.fallbacks().begin()->second;
}

// A graph whose program is too large to interpret is answered by the first model, and once one
// configuration proved it, the others are not compiled for the interpreter at all.
TEST_F(OracleFixture, AProgramTooLargeToInterpretStopsTheEmulatorForTheRest) {
  const KernelFamily& bfs = *find_family("bfs");
  Workload graph{WorkloadKind::Graph, generate_rmat(10, 8, 1)};
  const Problem p = make_problem(bfs, {{"sources", {0}}}, {Dtype::I32, Dtype::I32, Dtype::I32});
  const std::vector<Config> configs = bfs.space(p).enumerate();
  ASSERT_GE(configs.size(), 2u);
  int compiles = 0;
  FirstModelOracle first(bfs, graph, p, gpu, assumed());
  EmulatorOracle oracle(bfs, graph, p, gpu, counting_compile(bfs, p, compiles), first);
  CandidateEmulationOptions options;
  // Room for a program over every nonzero, not for BFS's levels: the interpreter finds out.
  options.max_program_warp_instructions = static_cast<uint64_t>(graph.matrix.nnz());
  oracle.set_options(options);
  ASSERT_TRUE(oracle.evaluate(configs[0]));
  ASSERT_TRUE(oracle.evaluate(configs[1]));
  EXPECT_EQ(oracle.emulation(configs[0]), nullptr);
  EXPECT_EQ(oracle.emulation(configs[1]), nullptr);
  EXPECT_EQ(compiles, 1);
  ASSERT_EQ(oracle.fallbacks().size(), 2u);
  for (const auto& [key, why] : oracle.fallbacks()) EXPECT_NE(why.find("too large to emulate"), std::string::npos) << why;

  // An oracle told so by another (a walk's, by the tune's probe) compiles nothing either.
  int walk_compiles = 0;
  EmulatorOracle walk(bfs, graph, p, gpu, counting_compile(bfs, p, walk_compiles), first);
  walk.learn_size_from(oracle);
  ASSERT_TRUE(walk.evaluate(configs[1]));
  EXPECT_EQ(walk.emulation(configs[1]), nullptr);
  EXPECT_EQ(walk_compiles, 0);
}

// Without twins, a budget below the workload's nonzeros: the program is declined before it is
// interpreted (the attempt would hold traces beside the graph only to give up). With them only
// the samples count against the budget, and the caller's own bound on nonzeros (a tune's)
// declines it alike.
TEST_F(OracleFixture, AProgramOverMoreNonzerosThanItsBudgetIsNotAttempted) {
  const KernelFamily& bfs = *find_family("bfs");
  Workload graph{WorkloadKind::Graph, generate_uniform(1 << 14, 1 << 14, 8, 1)};  // no hub: samples are few
  const Problem p = make_problem(bfs, {{"sources", {0}}}, {Dtype::I32, Dtype::I32, Dtype::I32});
  const Config config = bfs.space(p).first_valid();
  const auto nonzeros = static_cast<uint64_t>(graph.matrix.nnz());
  // "emulated", or why the first model answered.
  const auto outcome = [&](const CandidateEmulationOptions& options) -> std::string {
    int compiles = 0;
    FirstModelOracle first(bfs, graph, p, gpu, assumed());
    EmulatorOracle oracle(bfs, graph, p, gpu, counting_compile(bfs, p, compiles), first);
    oracle.set_options(options);
    EXPECT_TRUE(oracle.evaluate(config));
    EXPECT_EQ(compiles, 1);
    if (oracle.emulation(config)) return "emulated";
    return oracle.fallbacks().empty() ? "" : oracle.fallbacks().begin()->second;
  };
  const auto not_attempted = [](const std::string& why) { return why.find("not attempted") != std::string::npos; };
  CandidateEmulationOptions options;
  options.max_program_warp_instructions = nonzeros - 1;
  EXPECT_EQ(outcome(options), "emulated") << "its twins follow it on its samples";
  options.use_twins = false;
  EXPECT_TRUE(not_attempted(outcome(options)));
  options = CandidateEmulationOptions{};
  options.max_program_nonzeros = nonzeros - 1;
  EXPECT_TRUE(not_attempted(outcome(options)));
  options.max_program_nonzeros = nonzeros;
  EXPECT_EQ(outcome(options), "emulated");
  EXPECT_EQ(tune_emulation_options().max_program_nonzeros, uint64_t{1} << 23);

  // A budget below its nonzeros is no reason to decline a plan without a program (SpMV: sampled).
  int spmv_compiles = 0;
  FirstModelOracle spmv_first(family, w, Problem::of(Dtype::F32), gpu, assumed());
  EmulatorOracle spmv_oracle(family, w, Problem::of(Dtype::F32), gpu,
                             counting_compile(family, Problem::of(Dtype::F32), spmv_compiles), spmv_first);
  options.max_program_warp_instructions = static_cast<uint64_t>(w.matrix.nnz()) - 1;
  spmv_oracle.set_options(options);
  ASSERT_TRUE(spmv_oracle.evaluate(first_valid()));
  EXPECT_NE(spmv_oracle.emulation(first_valid()), nullptr);
  EXPECT_EQ(spmv_compiles, 1);
}


}  // namespace
}  // namespace ktune
