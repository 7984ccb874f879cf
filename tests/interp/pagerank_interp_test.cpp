// CI's check of the PageRank kernels without a GPU: the PTX interpreter runs whole plans
// (their loops included) of the first configuration of each direction and a seeded sample of
// the rest, f32 and f64, on a path, a star, several components with isolated vertices, a
// directed graph with dangling vertices and R-MAT graphs; the ranks must pass the family's
// verifier (1e-4 in L1 of the reference). The sample runs at most 30 iterations (the
// reference stops there too); one configuration a direction runs the default problem to its
// tolerance. A plan cut short, or one with the out-degrees off by one, must fail.
#include <gtest/gtest.h>

#include <cstring>

#include "kernels/device_buffers.h"
#include "kernels/pagerank/pagerank_family.h"
#include "model/interp/interpreter.h"
#include "model/ptx/ptx_parser.h"
#include "tests/kernels/graph_cases.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/sampled_configs.h"
#include "tests/ptx/spmv_ptx_corpus.h"
#include "workload/breadth_first.h"

namespace ktune::interp {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

namespace graph_case = testing_support::graph_case;

ptx::PtxModule module_of(const PagerankFamily& family, const Problem& problem, const Config& config) {
  KernelSource s = family.source(problem, config);
  return ptx::parse_ptx(testing_support::compile_to_ptx_cached(
      {std::move(s.code), std::move(s.entries), std::move(s.options), "compute_90"}));
}

Verdict run_and_verify(const PagerankFamily& family, const ptx::PtxModule& module, const LaunchPlan& plan,
                       const Workload& w) {
  const PlanOutput& out = plan.outputs.at(0);
  const std::vector<double> ranks = compute_outputs(module, plan).at("rank");
  return family.verify(plan.problem, out, output_bytes(ranks, out.dtype), family.reference(w, plan.problem).at("rank"), {});
}

TEST(PagerankInterp, SampledConfigurationsComputeTheReference) {
  const PagerankFamily family;
  const auto cases = graph_case::all();
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    const Problem problem = make_problem(family, {{"max_iterations", 30}}, Precision::uniform(dtype));
    for (const Config& config : testing_support::sampled_configs(family.space(problem), {"direction"}, 24, 13)) {
      const ptx::PtxModule module = module_of(family, problem, config);
      for (const auto& [name, w] : cases) {
        SCOPED_TRACE(family.space(problem).canonical(config) + " " + to_string(dtype) + " on " + name);
        const Verdict v = run_and_verify(family, module, family.prepare(w, problem, config), w);
        EXPECT_TRUE(v.ok) << v.message;
      }
    }
  }
}

TEST(PagerankInterp, TheDefaultProblemConvergesToItsTolerance) {
  const PagerankFamily family;
  const Problem problem = make_problem(family, nullptr, Precision::uniform(Dtype::F32));
  const Workload w = graph_case::all().at(4).second;  // rmat
  for (int64_t direction : {0, 1, 2}) {
    const Config config = {{"direction", direction}, {"block", 128}, {"lanes", direction == 2 ? 1 : 4}, {"items", 1}};
    const Verdict v = run_and_verify(family, module_of(family, problem, config), family.prepare(w, problem, config), w);
    EXPECT_TRUE(v.ok) << direction << ": " << v.message;
  }
}

TEST(PagerankInterp, APlanCutShortOrWithWrongDegreesFails) {
  const PagerankFamily family;
  const Problem problem = make_problem(family, nullptr, Precision::uniform(Dtype::F64));
  const Config pull = {{"direction", 0}, {"block", 64}, {"lanes", 1}, {"items", 1}};
  const ptx::PtxModule module = module_of(family, problem, pull);
  const Workload w = graph_case::all().at(3).second;  // directed, with dangling vertices

  LaunchPlan cut = family.prepare(w, problem, pull);
  EXPECT_TRUE(run_and_verify(family, module, cut, w).ok);
  cut.program.back().max_iterations = 3;
  EXPECT_FALSE(run_and_verify(family, module, cut, w).ok);

  LaunchPlan wrong = family.prepare(w, problem, pull);
  std::vector<int32_t> degrees;
  for (int32_t v = 0; v < vertex_count(w.matrix); ++v) degrees.push_back(out_degree(w.matrix, v) + 1);
  for (DeviceBuffer& b : wrong.buffers)
    if (b.name == "out_degree") b = index_buffer("out_degree", degrees);
  EXPECT_FALSE(run_and_verify(family, module, wrong, w).ok);
}

}  // namespace
}  // namespace ktune::interp
