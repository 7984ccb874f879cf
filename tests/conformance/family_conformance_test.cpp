// One suite every registered family goes through, whatever it computes: its problem and
// precisions, its space, sources that compile for sm_90 without spills, plans that match
// their launches, a reference the device kernels reproduce (run by the PTX interpreter), a
// verifier that catches a wrong element, the emulator, and vendor calls the worker knows.
// A new family is checked by registering it; nothing here names one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>

#include "gpu/compile_cache.h"
#include "gpu/vendor_calls.h"
#include "kernels/kernel_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "model/saake/candidate_emulation.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/random_csr.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

std::vector<std::string> family_names() {
  std::vector<std::string> names;
  for (const auto& f : all_families()) names.push_back(f->name());
  return names;
}

// Small enough for the interpreter to run whole plans, irregular enough to exercise them:
// empty rows and rows of every length up to 40. A dense family's workload is its problem's
// shape (its default problem is small enough): it carries no data.
Workload small_workload(const KernelFamily& family) {
  Workload w;
  if (family.workload_kind() == WorkloadKind::Dense) {
    w.kind = WorkloadKind::Dense;
    return w;
  }
  w.matrix = testing_support::random_csr(70, 60, 40, 11);
  return w;
}

// The PTX interpreter does not run every instruction yet (wgmma, TMA): a kernel
// it cannot parse is checked by compiling only (SourcesCompileForSm90WithoutSpills).
bool interpreter_lacks_an_instruction(const InputError& e) {
  const std::string what = e.what();
  return what.find("unknown opcode") != std::string::npos || what.find("is not modelled") != std::string::npos;
}

std::shared_ptr<const CompiledKernel> compile(const KernelFamily& family, const Problem& problem, const Config& config) {
  static const NvrtcCompiler compiler;
  static CompileCache cache(compiler, 256, nullptr);
  KernelSource s = family.source(problem, config);
  const std::string arch = compile_arch(s, "sm_90");  // sm_90a for wgmma's sources
  return cache.get(CompileRequest{std::move(s.code), std::move(s.entries), std::move(s.options), arch});
}

class FamilyConformance : public ::testing::TestWithParam<std::string> {
 protected:
  const KernelFamily& family() const { return *find_family(GetParam()); }
  // The family's default problem in each precision it takes.
  std::vector<Problem> problems() const {
    std::vector<Problem> out;
    for (const Precision& p : family().precisions()) out.push_back(make_problem(family(), nullptr, p));
    return out;
  }
  // A few configurations of the space, the same every run.
  std::vector<Config> configurations(const Problem& problem, size_t count = 4) const {
    SpaceRng rng(7);
    std::vector<Config> configs = family().space(problem).sample(rng, count);
    configs.insert(configs.begin(), family().space(problem).first_valid());
    return configs;
  }
  // The configurations whose plans the family prepares for `w` (a family may refuse one on a
  // workload it does not suit, with its reason): at least one must be.
  std::vector<std::pair<Config, LaunchPlan>> plans(const Workload& w, const Problem& problem, size_t count = 4) const {
    std::vector<std::pair<Config, LaunchPlan>> out;
    for (const Config& config : configurations(problem, count)) {
      try {
        out.emplace_back(config, family().prepare(w, problem, config));
      } catch (const InputError& refused) {
        EXPECT_FALSE(std::string(refused.what()).empty());
      }
    }
    EXPECT_FALSE(out.empty()) << "no configuration took the workload";
    return out;
  }
};

TEST_P(FamilyConformance, DescribesItsProblemPrecisionsAndVersion) {
  const KernelFamily& f = family();
  EXPECT_EQ(find_family(f.name()), &f);
  EXPECT_FALSE(f.description().empty());
  ASSERT_FALSE(f.precisions().empty());
  EXPECT_NO_THROW(f.problem_schema().validate(nullptr)) << "every parameter needs a default";
  EXPECT_THROW(make_problem(f, {{"no_such_parameter", 1}}, f.precisions().front()), InputError);
  EXPECT_FALSE(f.templates().empty());
  EXPECT_EQ(family_version(f).size(), 64u);
  for (const Problem& p : problems()) EXPECT_TRUE(f.space(p).valid(f.space(p).first_valid()));
}

// The model-driven walk starts from the family's canonical configurations and steps along its
// directions: every start, and every step the directions take from it until they stop, is in
// the space.
TEST_P(FamilyConformance, CanonicalMovesStayInTheSpace) {
  for (const Problem& problem : problems()) {
    const ParameterSpace space = family().space(problem);
    const CanonicalMoves moves = family().canonical_moves(problem);
    for (const Config& start : moves.starts) {
      ASSERT_TRUE(space.valid(start)) << space.violation(start);
      for (const CanonicalDirection& d : moves.directions) {
        Config at = start;
        for (int step = 0; step < 16; ++step) {
          const std::optional<Config> next = d.step(at);
          if (!next) break;
          ASSERT_TRUE(space.valid(*next)) << d.name << " from " << space.canonical(at) << ": " << space.violation(*next);
          EXPECT_NE(*next, at) << d.name;
          at = *next;
        }
      }
    }
  }
}

TEST_P(FamilyConformance, SourcesCompileForSm90WithoutSpills) {
  for (const Problem& problem : problems())
    for (const Config& config : configurations(problem)) {
      const std::string what = family().space(problem).canonical(config) + " " + to_string(problem.precision);
      const std::shared_ptr<const CompiledKernel> k = compile(family(), problem, config);
      ASSERT_TRUE(k->ok) << what << "\n" << k->log;
      for (const auto& [entry, usage] : k->usage) {
        EXPECT_EQ(usage.spill_stores, 0) << what << " " << entry;
        EXPECT_EQ(usage.spill_loads, 0) << what << " " << entry;
      }
    }
}

TEST_P(FamilyConformance, PlansMatchTheirLaunchesAndReference) {
  const Workload w = small_workload(family());
  for (const Problem& problem : problems()) {
    const Reference reference = family().reference(w, problem);
    for (const auto& [config, plan] : plans(w, problem)) {
      const std::string what = family().space(problem).canonical(config);
      EXPECT_NO_THROW(check_plan(plan)) << what;
      EXPECT_EQ(plan.family, family().name()) << what;
      EXPECT_EQ(plan.problem.key(), problem.key()) << what;
      const std::vector<LaunchStep> launches = family().launches(w, problem, config);
      ASSERT_EQ(launches.size(), plan.steps.size()) << what;
      for (size_t i = 0; i < launches.size(); ++i) {
        EXPECT_EQ(launches[i].entry, plan.steps[i].entry) << what;
        EXPECT_EQ(launches[i].grid.x, plan.steps[i].grid.x) << what;
      }
      ASSERT_FALSE(plan.outputs.empty()) << what;
      for (const PlanOutput& o : plan.outputs) {
        ASSERT_TRUE(reference.count(o.buffer)) << what << " " << o.buffer;
        EXPECT_EQ(reference.at(o.buffer).size(), o.reference_elements()) << what << " " << o.buffer;
      }
    }
  }
}

// A family that says a problem reads no values is given workloads without them: its reference
// and its plans' inputs must not change when they go.
TEST_P(FamilyConformance, AProblemThatReadsNoValuesAnswersAlikeWithoutThem) {
  const Workload w = small_workload(family());
  for (const Problem& problem : problems()) {
    if (family().reads_values(problem)) continue;
    Workload bare(w.kind, w.matrix);
    bare.matrix.values = {};
    EXPECT_EQ(family().reference(bare, problem), family().reference(w, problem));
    for (const auto& [config, plan] : plans(w, problem)) {
      const LaunchPlan without = family().prepare(bare, problem, config);
      ASSERT_EQ(without.buffers.size(), plan.buffers.size());
      for (size_t i = 0; i < plan.buffers.size(); ++i)
        EXPECT_EQ(without.buffers[i].bytes.view(), plan.buffers[i].bytes.view()) << plan.buffers[i].name;
    }
  }
}

TEST_P(FamilyConformance, DeviceKernelsReproduceTheReferenceInTheInterpreter) {
  const Workload w = small_workload(family());
  int interpreted = 0;
  for (const Problem& problem : problems()) {
    const Reference reference = family().reference(w, problem);
    for (const auto& [config, plan] : plans(w, problem)) {
      // What the family says the interpreter cannot run (tensor-core kernels, TMA) it need not.
      if (!family().emulable(problem, config)) continue;
      const std::string what = family().space(problem).canonical(config) + " " + to_string(problem.precision);
      std::optional<ptx::PtxModule> module;
      try {
        module = ptx::parse_ptx(compile(family(), problem, config)->ptx);
      } catch (const InputError& e) {
        if (!interpreter_lacks_an_instruction(e)) throw;
        continue;
      }
      ++interpreted;
      // A launch sized from a counter also runs its whole grid when the device runs the loop;
      // the launches' native twins, which the emulator follows large graphs with, must agree too.
      std::vector<std::pair<CounterGrids, interp::TwinnedLaunches>> ways = {
          {CounterGrids::FromCounter, interp::TwinnedLaunches::Interpreted}};
      for (const LaunchStep& s : plan.steps)
        if (s.grid_from && ways.size() == 1) ways.push_back({CounterGrids::Wave, interp::TwinnedLaunches::Interpreted});
      if (!plan.twins.empty()) ways.push_back({CounterGrids::FromCounter, interp::TwinnedLaunches::ByTwin});
      for (const auto& [grids, twinned] : ways) {
        const Reference got = interp::compute_outputs(*module, plan, grids, twinned);
        for (const PlanOutput& o : plan.outputs) {
          const Verdict v = family().verify(problem, o, output_bytes(got.at(o.buffer), o.dtype),
                                            reference.at(o.buffer), check_data_of(plan));
          EXPECT_TRUE(v.ok) << what << " " << o.buffer << (grids == CounterGrids::Wave ? " (striding wave)" : "")
                            << (twinned == interp::TwinnedLaunches::ByTwin ? " (native twins)" : "") << ": "
                            << v.message;
        }
      }
    }
  }
  EXPECT_GT(interpreted, 0) << "the interpreter ran none of the family's kernels";
}

TEST_P(FamilyConformance, TheVerifierCatchesAWrongElement) {
  const Workload w = small_workload(family());
  const Problem problem = problems().front();
  const LaunchPlan plan = plans(w, problem).front().second;
  const Reference reference = family().reference(w, problem);
  for (const PlanOutput& o : plan.outputs) {
    if (o.sampled > 0) {
      // A sampled reference names no element by position: the kernel's own output passes, and
      // the output shifted by a tenth of its largest value, or never written, fails.
      std::vector<double> got =
          interp::compute_outputs(ptx::parse_ptx(compile(family(), problem, plans(w, problem).front().first)->ptx), plan)
              .at(o.buffer);
      const CheckData data = check_data_of(plan);
      EXPECT_TRUE(family().verify(problem, o, output_bytes(got, o.dtype), reference.at(o.buffer), data).ok) << o.buffer;
      double largest = 1e-30;
      for (double v : got) largest = std::max(largest, std::fabs(v));
      std::vector<double> shifted = got, unwritten(got.size(), std::nan(""));
      for (double& v : shifted) v += largest / 10;
      EXPECT_FALSE(family().verify(problem, o, output_bytes(shifted, o.dtype), reference.at(o.buffer), data).ok) << o.buffer;
      EXPECT_FALSE(family().verify(problem, o, output_bytes(unwritten, o.dtype), reference.at(o.buffer), data).ok)
          << o.buffer;
      continue;
    }
    std::vector<double> wrong = reference.at(o.buffer);
    ASSERT_FALSE(wrong.empty());
    wrong[wrong.size() / 2] = std::nan("");  // as an element the kernel never wrote
    EXPECT_FALSE(family().verify(problem, o, output_bytes(wrong, o.dtype), reference.at(o.buffer), check_data_of(plan)).ok)
        << o.buffer;
    EXPECT_TRUE(family().verify(problem, o, output_bytes(reference.at(o.buffer), o.dtype), reference.at(o.buffer),
                                check_data_of(plan))
                    .ok)
        << o.buffer;
  }
}

TEST_P(FamilyConformance, TheEmulatorPredictsEveryConfiguration) {
  const Workload w = small_workload(family());
  const Problem problem = problems().front();
  for (const auto& [config, plan] : plans(w, problem, 2)) {
    const CandidatePrediction p = emulate_candidate(family(), w, problem, config, plan, *compile(family(), problem, config),
                                                    spec_for_arch("sm_90"));
    EXPECT_GT(p.microseconds, 0) << family().space(problem).canonical(config);
    EXPECT_GT(family().flops(w, problem), 0);
    EXPECT_GT(family().min_bytes(w, problem), 0);
  }
}

TEST_P(FamilyConformance, VendorCallsAreKnownToTheWorkerAndTheirPlanHoldsTheirBuffers) {
  const Workload w = small_workload(family());
  for (const Problem& problem : problems()) {
    const std::vector<VendorCall> calls = family().vendor_calls(w, problem);
    if (calls.empty()) continue;
    const LaunchPlan plan = family().vendor_plan(w, problem);
    EXPECT_NO_THROW(check_plan(plan));
    for (const VendorCall& call : calls) {
      EXPECT_TRUE(has_vendor_call(call.name)) << call.name;
      EXPECT_FALSE(call.label.empty());
      for (const auto& [role, value] : call.args.items())
        if (value.is_string() && plan.buffer(value.get<std::string>()) == nullptr && role != "alg")
          ADD_FAILURE() << call.label << " names a buffer '" << value.get<std::string>() << "' its plan lacks";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryFamily, FamilyConformance, ::testing::ValuesIn(family_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace ktune
