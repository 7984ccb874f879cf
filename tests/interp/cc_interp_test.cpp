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

// The edge pass finds its entries' rows two ways (cc_edge.cu): a warp's chunk spanning fewer than
// 32 rows by shuffles, one spanning more (empty rows between) by a search of row_ptr. Both, and a
// last warp only partly filled, on graphs made for them, where every row's edges lead to leaves
// of its own (a wrong row joins the wrong components): 100 rows 37 apart with an edge each (every
// chunk spans more than a thousand rows), and 50 consecutive rows with two each (chunks of 16
// rows); 100 entries leave the last warp 4.
TEST(CcInterp, TheEdgePassFindsEachEntrysRowWhereChunksSpanFewRowsOrMany) {
  const CcFamily family;
  const Problem problem = Problem::of(Dtype::I32);
  std::vector<std::pair<int32_t, int32_t>> spread, packed;
  for (int32_t i = 0; i < 100; ++i) spread.emplace_back(37 * i, 37 * i + 1);
  for (int32_t i = 0; i < 50; ++i) {
    packed.emplace_back(i, 1000 + 2 * i);
    packed.emplace_back(i, 1001 + 2 * i);
  }
  for (int64_t algorithm : {0, 1, 2}) {
    const Config config = {{"algorithm", algorithm}, {"schedule", 1}, {"block", 64},
                           {"lanes", 1},             {"items", 2},    {"jumps", algorithm == 1 ? 1 : 0}};
    const ptx::PtxModule module = module_of(family, config);
    for (const auto& edges : {spread, packed}) {
      Workload w;
      w.matrix = graph_case::graph_of(3701, 3701, edges, false);
      const Verdict v = run_and_verify(family, module, family.prepare(w, problem, config), w);
      EXPECT_TRUE(v.ok) << algorithm << ": " << v.message;
    }
  }
}

}  // namespace
}  // namespace ktune::interp
