// CI's check of the connected-components kernels without a GPU: the PTX interpreter runs
// whole plans (their loops included) of the first configuration of every algorithm and
// schedule and a seeded sample of the rest, on a path, a star, several components with
// isolated vertices, a directed graph and R-MAT graphs; the labels must pass the family's
// verifier against the union-find reference. A plan cut short, or run on the directed
// adjacency instead of the undirected one, must fail it.
#include <gtest/gtest.h>

#include <cstring>

#include "kernels/cc/cc_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/graph_cases.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/sampled_configs.h"
#include "tests/ptx/spmv_ptx_corpus.h"

namespace ktune::interp {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

namespace graph_case = testing_support::graph_case;

ptx::PtxModule module_of(const CcFamily& family, const Config& config) {
  KernelSource s = family.source(Problem::of(Dtype::I32), config);
  return ptx::parse_ptx(testing_support::compile_to_ptx_cached(
      {std::move(s.code), std::move(s.entries), std::move(s.options), "compute_90"}));
}

Verdict run_and_verify(const CcFamily& family, const ptx::PtxModule& module, const LaunchPlan& plan,
                       const Workload& w) {
  const std::vector<double> labels = compute_outputs(module, plan).at("label");
  return family.verify(plan.problem, plan.outputs.at(0), output_bytes(labels, Dtype::I32),
                       family.reference(w, plan.problem).at("label"), {});
}

TEST(CcInterp, SampledConfigurationsComputeTheReference) {
  const CcFamily family;
  const Problem problem = Problem::of(Dtype::I32);
  const std::vector<Config> configs =
      testing_support::sampled_configs(family.space(problem), {"algorithm", "schedule"}, 40, 11);
  const auto cases = graph_case::all();
  for (const Config& config : configs) {
    const ptx::PtxModule module = module_of(family, config);
    for (const auto& [name, w] : cases) {
      SCOPED_TRACE(family.space(problem).canonical(config) + " on " + name);
      const Verdict v = run_and_verify(family, module, family.prepare(w, problem, config), w);
      EXPECT_TRUE(v.ok) << v.message;
    }
  }
}

TEST(CcInterp, APlanCutShortOrRunOnOneDirectionFails) {
  const CcFamily family;
  const Problem problem = Problem::of(Dtype::I32);
  const Config propagation = {{"algorithm", 0}, {"schedule", 0}, {"block", 64}, {"lanes", 1}, {"items", 1}, {"jumps", 0}};
  const ptx::PtxModule module = module_of(family, propagation);

  Workload path;
  path.matrix = graph_case::path(300);
  LaunchPlan cut = family.prepare(path, problem, propagation);
  EXPECT_TRUE(run_and_verify(family, module, cut, path).ok);
  cut.program.back().max_iterations = 2;
  EXPECT_FALSE(run_and_verify(family, module, cut, path).ok);

  // The directed graph's out-lists alone, its in-lists left unread: a vertex whose only edges
  // point into it never learns of its component.
  Workload directed;
  directed.matrix = graph_case::directed();
  LaunchPlan one_way = family.prepare(directed, problem, propagation);
  EXPECT_TRUE(run_and_verify(family, module, one_way, directed).ok);
  ASSERT_EQ(one_way.steps[1].entry, "cc_vertex");
  one_way.steps[1].args[5] = KernelArg::of_scalar(int32_t{0});  // both_ways
  EXPECT_FALSE(run_and_verify(family, module, one_way, directed).ok);
}

}  // namespace
}  // namespace ktune::interp
