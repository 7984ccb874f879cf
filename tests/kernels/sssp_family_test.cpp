// The SSSP family's contract on the host: its problem (weights generated or from the file,
// refused when negative, non-finite, or fractional under i32; sources inside the graph), its
// space and plans (a loop per source, a sweep only for delta-stepping), Dijkstra's answer on a
// graph worked out by hand, and a verifier that fails a wrong distance.
#include "kernels/sssp/sssp_family.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/sssp/sssp_config.h"
#include "kernels/sssp/sssp_weights.h"
#include "tests/kernels/plan_outputs.h"
#include "tests/kernels/sssp_graphs.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

namespace cases = testing_support::sssp_case;

Workload graph_workload(CsrF64 g) {
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = std::move(g);
  return w;
}

Problem sssp_problem(nlohmann::json params, Dtype dtype = Dtype::I32) {
  return make_problem(SsspFamily(), params, Precision::uniform(dtype));
}

TEST(SsspFamily, TakesIntegerThenFloatDistancesAndDefaultsToGeneratedWeights) {
  const SsspFamily family;
  EXPECT_EQ(family.workload_kind(), WorkloadKind::Graph);
  EXPECT_EQ(family.precisions().front(), Precision::uniform(Dtype::I32));
  const Problem p = sssp_problem(nullptr);
  EXPECT_EQ(p.params, (nlohmann::json{{"max_weight", 64}, {"sources", nlohmann::json::array()}, {"weights", "generated"}}));
  EXPECT_THROW(sssp_problem({{"weights", "random"}}), InputError);
  EXPECT_THROW(sssp_problem({{"max_weight", 0}}), InputError);
}

TEST(SsspFamily, RefusesBadWeightsAndSourcesBeforeAnythingIsAllocated) {
  const SsspFamily family;
  Workload w = graph_workload(cases::heavy_light_path());
  EXPECT_NO_THROW(family.check_problem(w, sssp_problem({{"weights", "file"}})));
  EXPECT_THROW(family.check_problem(w, sssp_problem({{"sources", {120}}})), InputError);
  Workload negative = w;
  negative.matrix.values[3] = -1;
  EXPECT_THROW(family.check_problem(negative, sssp_problem({{"weights", "file"}})), InputError);
  EXPECT_NO_THROW(family.check_problem(negative, sssp_problem({{"weights", "generated"}})));
  Workload nan = w;
  nan.matrix.values[5] = std::nan("");
  EXPECT_THROW(family.check_problem(nan, sssp_problem({{"weights", "file"}}, Dtype::F32)), InputError);
  const Workload fractional = graph_workload(cases::fractional(cases::heavy_light_path()));
  EXPECT_THROW(family.check_problem(fractional, sssp_problem({{"weights", "file"}})), InputError);
  EXPECT_NO_THROW(family.check_problem(fractional, sssp_problem({{"weights", "file"}}, Dtype::F32)));
}

TEST(SsspFamily, GeneratedWeightsAreTheSameBothWaysAndInRange) {
  for (int32_t u = 0; u < 50; ++u)
    for (int32_t v = 0; v < 50; ++v) {
      EXPECT_EQ(generated_weight(u, v, 64), generated_weight(v, u, 64));
      EXPECT_GE(generated_weight(u, v, 64), 1);
      EXPECT_LE(generated_weight(u, v, 64), 64);
    }
  EXPECT_EQ(generated_weight(3, 9, 1), 1);
}

// The path's prefix to 60 costs 89 (light edges, one of them 0): the shortcut of 40 wins there,
// the one of 500 to 110 loses to 40 + 75.
TEST(SsspFamily, TheReferenceIsDijkstraOnTheFileWeights) {
  const SsspFamily family;
  const Workload w = graph_workload(cases::heavy_light_path());
  const Reference r = family.reference(w, sssp_problem({{"sources", {0}}, {"weights", "file"}}));
  const std::vector<double>& d = r.at("distances");
  ASSERT_EQ(d.size(), 120u);
  EXPECT_EQ(d[0], 0);
  EXPECT_EQ(d[31], d[30]);  // the zero-weight edge
  EXPECT_EQ(d[60], 40);
  EXPECT_EQ(d[59], 42);
  EXPECT_EQ(d[110], 115);
  const Workload directed = graph_workload(testing_support::directed_graph());
  const Reference unreached = family.reference(directed, sssp_problem({{"sources", {0}}}));
  EXPECT_EQ(unreached.at("distances")[65], std::numeric_limits<int32_t>::max());
  const Reference unreached_f32 = family.reference(directed, sssp_problem({{"sources", {0}}}, Dtype::F32));
  EXPECT_TRUE(std::isinf(unreached_f32.at("distances")[65]));
}

TEST(SsspFamily, TheVerifierFailsAWrongDistance) {
  const SsspFamily family;
  const Workload w = graph_workload(cases::fractional(generate_rmat(7, 4, 5)));
  for (Dtype dtype : {Dtype::I32, Dtype::F32}) {
    SCOPED_TRACE(to_string(dtype));
    const Problem p = sssp_problem({{"weights", dtype == Dtype::F32 ? "file" : "generated"}}, dtype);
    const LaunchPlan plan = family.prepare(w, p, sssp_space().first_valid());
    const Reference r = family.reference(w, p);
    std::vector<double> d = r.at("distances");
    const PlanOutput& out = plan.outputs.at(0);
    EXPECT_TRUE(family.verify(p, out, output_bytes(d, dtype), r.at("distances"), check_data_of(plan)).ok);
    size_t reached = 1;
    while (d[reached] == 0 || std::isinf(d[reached]) || d[reached] == std::numeric_limits<int32_t>::max()) ++reached;
    d[reached] *= 1.01;
    d[reached] += 1;
    const Verdict wrong = family.verify(p, out, output_bytes(d, dtype), r.at("distances"), check_data_of(plan));
    EXPECT_FALSE(wrong.ok);
    EXPECT_EQ(wrong.bad_elements, 1) << wrong.message;
  }
}

TEST(SsspFamily, OnlyTheSchedulesThatShareOutEdgesTakeABatch) {
  Config c = sssp_space().first_valid();
  c["batch"] = 8;
  for (SsspBalance balance : {SsspBalance::Thread, SsspBalance::Warp, SsspBalance::Block}) {
    c["schedule"] = static_cast<int64_t>(balance);
    EXPECT_FALSE(sssp_space().valid(c)) << static_cast<int>(balance);
  }
  for (SsspBalance balance : {SsspBalance::Segment, SsspBalance::Tile}) {
    c["schedule"] = static_cast<int64_t>(balance);
    ASSERT_TRUE(sssp_space().valid(c)) << sssp_space().violation(c);
    const KernelSource s = SsspFamily().source(sssp_problem({{"sources", {0}}}), c);
    EXPECT_NE(std::find(s.options.begin(), s.options.end(), "-DKT_RELAX_BATCH=8"), s.options.end());
  }
}

TEST(SsspFamily, PlansLoopPerSourceAndOnlyDeltaSteppingSweeps) {
  const SsspFamily family;
  const Workload w = graph_workload(cases::heavy_light_path());
  const Problem p = sssp_problem({{"sources", {0, 5, 9}}});
  Config bf = sssp_space().first_valid();
  Config delta = bf;
  delta["algorithm"] = static_cast<int64_t>(SsspAlgorithm::DeltaStepping);
  delta["delta"] = 4;
  bf["delta"] = 2;
  EXPECT_FALSE(sssp_space().valid(bf));
  bf["delta"] = 1;
  for (const Config& c : {bf, delta}) {
    const LaunchPlan plan = family.prepare(w, p, c);
    int loops = 0, sweeps = 0;
    for (const PlanOp& op : plan.program) {
      if (op.kind != PlanOp::Kind::Loop) continue;
      ++loops;
      EXPECT_GE(op.max_iterations, 120);
      for (const PlanOp& inner : op.body) sweeps += plan.steps.at(inner.launch).entry == "sssp_sweep";
    }
    EXPECT_EQ(loops, 3);
    EXPECT_EQ(sweeps, c == delta ? 3 : 0);
    EXPECT_EQ(plan.outputs.at(0).elements, 360u);
    EXPECT_NO_THROW(check_plan(plan));
    // Three alike units, each a source's fills, start and loop, after the distances' fill.
    ASSERT_TRUE(plan.alike.has_value());
    EXPECT_EQ(plan.alike->first, 1u);
    EXPECT_EQ(plan.alike->units, 3u);
    EXPECT_EQ(plan.alike->first + plan.alike->unit * plan.alike->units, plan.program.size());
    EXPECT_EQ(plan.program[plan.alike->first + plan.alike->unit - 1].kind, PlanOp::Kind::Loop);
    LaunchPlan wrong = plan;
    wrong.alike->units = 4;
    EXPECT_THROW(check_plan(wrong), InputError);
    EXPECT_GT(family.estimate(w, p, c).dram_bytes, 0);
  }
  EXPECT_GT(family.min_bytes(w, p), 0);
  EXPECT_LE(family.min_bytes(w, p), family.estimate(w, p, bf).dram_bytes);
}

}  // namespace
}  // namespace ktune
