// Plans with control flow without a GPU: the interpreter runs a looping plan to its answer,
// and the emulator follows the same loop, emulating every launch it executes.
#include <gtest/gtest.h>

#include "gpu/compile_cache.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "model/saake/candidate_emulation.h"
#include "tests/kernels/iterative_plan.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using namespace testing_support;

std::shared_ptr<const CompiledKernel> compile_iterative() {
  static const NvrtcCompiler compiler;
  static CompileCache cache(compiler, 4, nullptr);
  std::shared_ptr<const CompiledKernel> k = cache.get({iterative_source(), {"halve", "mark"}, {}, "sm_90"});
  if (!k->ok) throw std::runtime_error("NVRTC failed:\n" + k->log);
  return k;
}

TEST(IterativePlan, TheInterpreterFollowsTheLoopToTheAnswer) {
  const LaunchPlan plan = iterative_plan();
  ASSERT_NO_THROW(check_plan(plan));
  const ptx::PtxModule module = ptx::parse_ptx(compile_iterative()->ptx);
  EXPECT_EQ(interp::compute_outputs(module, plan), iterative_reference());
  // As a loop the device runs: `mark` on its whole grid, stopping at the counter.
  EXPECT_EQ(interp::compute_outputs(module, plan, CounterGrids::Wave), iterative_reference());
}

TEST(IterativePlan, TheEmulatorTimesEveryLaunchTheLoopRuns) {
  const CandidatePrediction p = emulate_plan(iterative_plan(), *compile_iterative(), LaunchWeigher{},
                                             spec_for_arch("sm_90"));
  // Each iteration runs `mark` (its grid from the counter) and `halve`.
  ASSERT_EQ(p.steps.size(), static_cast<size_t>(2 * iterative_iterations()));
  EXPECT_EQ(p.steps.front().entry, "mark");
  EXPECT_EQ(p.steps.front().blocks, 4);  // 1000 items, 256 a block
  EXPECT_EQ(p.steps[2 * (iterative_iterations() - 1)].blocks, 1);  // the last iteration's single item
  // Five fills, then two launches an iteration: the graph's nodes and turns replace the steps'
  // launches, as the first cost model charges them.
  EXPECT_EQ(p.loop_iterations, iterative_iterations());
  EXPECT_EQ(p.program_nodes, 5 + 2 * iterative_iterations());
  const GpuSpec gpu = spec_for_arch("sm_90");
  const double launch_us = launch_time_us(gpu, p.program_nodes, p.loop_iterations);
  EXPECT_DOUBLE_EQ(p.launch_microseconds, launch_us);
  double work = 0;
  for (const StepEmulation& s : p.steps)
    work += s.prediction.microseconds - s.prediction.launch_cycles / (gpu.clock_ghz * 1e3);
  EXPECT_NEAR(p.microseconds, work + launch_us, 1e-9 * p.microseconds);
}

TEST(IterativePlan, ABoundStopsALoopThatWouldNotEnd) {
  LaunchPlan plan = iterative_plan();
  plan.program.back().max_iterations = 3;
  const Reference got = interp::compute_outputs(ptx::parse_ptx(compile_iterative()->ptx), plan);
  EXPECT_EQ(got.at("acc")[0], 1000 + 500 + 250);
}

TEST(IterativePlan, MalformedProgramsAreRefused) {
  LaunchPlan unbounded = iterative_plan();
  unbounded.program.back().max_iterations = 0;
  EXPECT_THROW(check_plan(unbounded), InputError);
  LaunchPlan copy_sizes = iterative_plan();
  copy_sizes.program.push_back(PlanOp::copy("history", "marks"));
  EXPECT_THROW(check_plan(copy_sizes), InputError);
  LaunchPlan counter = iterative_plan();
  counter.steps[0].grid_from->buffer = "nowhere";
  EXPECT_THROW(check_plan(counter), InputError);
}

}  // namespace
}  // namespace ktune
