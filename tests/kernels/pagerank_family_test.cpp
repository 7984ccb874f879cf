// The PageRank family on the host: its problem (damping, tolerance, iterations: defaults and
// 4xx bounds), its reference (ranks that sum to one with dangling vertices spread, the
// tolerance and the bound honoured), its verifier (1e-4 in L1), its plan and its estimates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numeric>

#include "kernels/graph/graph_transpose.h"
#include "kernels/pagerank/pagerank_family.h"
#include "kernels/pagerank/pagerank_reference.h"
#include "tests/kernels/graph_cases.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

namespace graph_case = testing_support::graph_case;
using graph_case::graph_of;

Problem problem_of(nlohmann::json params, Dtype dtype = Dtype::F64) {
  return make_problem(PagerankFamily(), params, Precision::uniform(dtype));
}

std::string bytes_of(const std::vector<double>& ranks, Dtype dtype) {
  std::string out(ranks.size() * dtype_size(dtype), '\0');
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (dtype == Dtype::F32) {
      const auto v = static_cast<float>(ranks[i]);
      std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
    } else {
      std::memcpy(out.data() + i * sizeof ranks[i], &ranks[i], sizeof ranks[i]);
    }
  }
  return out;
}

TEST(PagerankProblem, DefaultsAndBoundsAreValidatedBeforeAnythingRuns) {
  const PagerankProblem defaults = PagerankProblem::of(problem_of(nullptr));
  EXPECT_DOUBLE_EQ(defaults.damping, 0.85);
  EXPECT_DOUBLE_EQ(defaults.tolerance, 1e-6);
  EXPECT_EQ(defaults.max_iterations, 100);
  EXPECT_THROW(problem_of({{"damping", 1.5}}), InputError);
  EXPECT_THROW(problem_of({{"damping", 0}}), InputError);
  EXPECT_THROW(problem_of({{"tolerance", -1}}), InputError);
  EXPECT_THROW(problem_of({{"max_iterations", 0}}), InputError);
  EXPECT_THROW(problem_of({{"max_iterations", 100000}}), InputError);
  EXPECT_THROW(problem_of(nullptr, Dtype::I32), InputError);
  EXPECT_EQ(problem_of({{"damping", 0.5}}).key(), R"({"damping":0.5,"max_iterations":100,"tolerance":1e-06})");
}

TEST(PagerankReference, RanksSumToOneWithDanglingVerticesSpread) {
  for (const auto& [name, w] : graph_case::all()) {
    const std::vector<double> r = pagerank_reference(w.matrix, PagerankProblem{}).ranks;
    EXPECT_NEAR(std::accumulate(r.begin(), r.end(), 0.0), 1.0, 1e-9) << name;
  }
  // A hub everyone points to, pointing nowhere: it holds the most, and the rest share alike.
  const std::vector<double> r = pagerank_reference(graph_of(4, 4, {{0, 3}, {1, 3}, {2, 3}}, false), PagerankProblem{}).ranks;
  EXPECT_GT(r[3], 2 * r[0]);
  EXPECT_NEAR(r[0], r[1], 1e-12);
  // The fixed point, worked by hand: x0 = a + d x3 / 4 and x3 = a + d (3 x0 + x3 / 4) with
  // a = (1 - d) / 4, so x3 (1 - d / 4 - 3 d^2 / 4) = a (1 + 3 d).
  const double a = 0.15 / 4, d = 0.85;
  EXPECT_NEAR(r[3], a * (1 + 3 * d) / (1 - d / 4 - 3 * d * d / 4), 1e-5);
}

TEST(PagerankReference, StopsAtTheToleranceOrTheBound) {
  const CsrF64 g = graph_case::directed();
  const std::vector<double> one = pagerank_reference(g, {0.85, 1e-6, 1}).ranks;
  // One iteration from uniform: vertex 0 has no in-edge, so it keeps only teleport and the
  // dangling share (3 and 9 have no out-edges: 2/10 of the rank).
  EXPECT_NEAR(one[0], 0.15 / 10 + 0.85 * (0.2 / 10), 1e-15);
  const std::vector<double> loose = pagerank_reference(g, {0.85, 0.5, 100}).ranks;
  const std::vector<double> tight = pagerank_reference(g, {0.85, 1e-12, 1000}).ranks;
  double loose_error = 0, default_error = 0;
  const std::vector<double> standard = pagerank_reference(g, PagerankProblem{}).ranks;
  for (size_t i = 0; i < tight.size(); ++i) {
    loose_error += std::fabs(loose[i] - tight[i]);
    default_error += std::fabs(standard[i] - tight[i]);
  }
  EXPECT_GT(loose_error, 1e-3);
  EXPECT_LT(default_error, 1e-5);
}

TEST(PagerankVerify, WithinTheL1BoundPassesAndAWrongRankFails) {
  const CsrF64 g = graph_case::star(50);
  const PagerankProblem p;
  const std::vector<double> reference = pagerank_reference(g, p).ranks;
  for (Dtype dtype : {Dtype::F32, Dtype::F64}) {
    EXPECT_TRUE(check_ranks(bytes_of(reference, dtype), dtype, reference, p).ok) << to_string(dtype);
    std::vector<double> off = reference;
    off[7] += 2e-4;
    const Verdict v = check_ranks(bytes_of(off, dtype), dtype, reference, p);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("vertex 7"), std::string::npos) << v.message;
    off = reference;
    off[3] = std::nan("");
    EXPECT_FALSE(check_ranks(bytes_of(off, dtype), dtype, reference, p).ok);
  }
  EXPECT_FALSE(check_ranks(bytes_of({0.5}, Dtype::F64), Dtype::F64, reference, p).ok);
  // A loose tolerance allows what stopping one iteration apart may differ by.
  EXPECT_DOUBLE_EQ(pagerank_l1_bound(p), 1e-4);
  EXPECT_NEAR(pagerank_l1_bound({0.5, 0.01, 100}), 0.02, 1e-15);
}

TEST(PagerankFamily, ThePlanLoopsUntilTheChangeIsBelowTheTolerance) {
  const PagerankFamily family;
  Workload w;
  w.matrix = graph_case::directed();
  const Problem p = problem_of({{"max_iterations", 40}}, Dtype::F32);
  for (int64_t direction : {0, 1}) {
    const LaunchPlan plan = family.prepare(w, p, {{"direction", direction}, {"block", 64}, {"lanes", 4}, {"items", 2}});
    EXPECT_NO_THROW(check_plan(plan));
    ASSERT_EQ(plan.steps.size(), 4u);
    EXPECT_EQ(plan.steps[0].entry, "pagerank_init");
    EXPECT_EQ(plan.steps[1].entry, direction == 0 ? "pagerank_contrib" : "pagerank_scatter");
    EXPECT_EQ(plan.steps[2].entry, direction == 0 ? "pagerank_pull" : "pagerank_finish");
    EXPECT_EQ(plan.steps[3].entry, "pagerank_check");
    const PlanOp& loop = plan.program.back();
    ASSERT_EQ(loop.kind, PlanOp::Kind::Loop);
    EXPECT_EQ(loop.until_zero, "active");
    EXPECT_EQ(loop.max_iterations, 40);
    EXPECT_EQ(plan.program.size(), direction == 0 ? 3u : 4u);  // push also clears `next` first
    EXPECT_EQ(plan.outputs.at(0).dtype, Dtype::F32);
    EXPECT_EQ(plan.outputs.at(0).elements, 10u);
  }
}

TEST(PagerankFamily, APullOverEdgesReadsEachEdgesHeadAndFinishesLikeAPush) {
  const PagerankFamily family;
  Workload w;
  w.matrix = graph_case::directed();
  const Problem p = problem_of({{"max_iterations", 40}}, Dtype::F32);
  EXPECT_THROW(family.prepare(w, p, {{"direction", 2}, {"block", 64}, {"lanes", 4}, {"items", 1}}), InputError);
  const LaunchPlan plan = family.prepare(w, p, {{"direction", 2}, {"block", 64}, {"lanes", 1}, {"items", 2}});
  EXPECT_NO_THROW(check_plan(plan));
  std::vector<std::string> entries;
  for (const LaunchStep& s : plan.steps) entries.push_back(s.entry);
  EXPECT_EQ(entries, (std::vector<std::string>{"pagerank_init", "pagerank_contrib", "pagerank_pull_edges",
                                               "pagerank_finish", "pagerank_check"}));
  EXPECT_EQ(plan.steps[2].grid.x, (w.matrix.nnz() + 127) / 128);  // a thread per edge, two an item apart
  // The heads of the in-edges, in the transpose's order: row v of the transpose, repeated.
  const DeviceBuffer* heads = plan.buffer("in_row");
  ASSERT_NE(heads, nullptr);
  const CsrF64 in = transpose_graph(w.matrix);
  ASSERT_EQ(heads->size, in.col_idx.size() * sizeof(int32_t));
  const auto* head = reinterpret_cast<const int32_t*>(heads->bytes.data());
  for (int32_t v = 0; v < in.rows; ++v)
    for (int32_t k = in.row_ptr[v]; k < in.row_ptr[v + 1]; ++k) EXPECT_EQ(head[k], v);
  EXPECT_EQ(plan.program.size(), 4u);  // init, the sums and `next` cleared, the loop
  EXPECT_EQ(plan.program.back().body.size(), 4u);
}

TEST(PagerankEstimate, IterationsFollowTheToleranceAndPushScattersOverOutDegrees) {
  EXPECT_EQ(pagerank_expected_iterations(PagerankProblem{}), 90);
  EXPECT_EQ(pagerank_expected_iterations({0.85, 1e-6, 10}), 10);
  EXPECT_LT(pagerank_expected_iterations({0.5, 1e-6, 100}), 30);
  // A star pointing out of vertex 0: one long out-list, in-lists of one.
  std::vector<std::pair<int32_t, int32_t>> edges;
  for (int32_t v = 1; v < 256; ++v) edges.emplace_back(0, v);
  const PagerankGraphDigest g = pagerank_graph_digest(graph_of(256, 256, edges, false));
  PagerankConfig pull, push;
  push.direction = PagerankDirection::Push;
  const WorkEstimate gathered = estimate_pagerank(g, pull, Dtype::F32, 90);
  const WorkEstimate scattered = estimate_pagerank(g, push, Dtype::F32, 90);
  EXPECT_GT(*std::max_element(scattered.warp_work.begin(), scattered.warp_work.end()),
            10 * *std::max_element(gathered.warp_work.begin(), gathered.warp_work.end()));
  EXPECT_GT(pagerank_min_bytes(g, Dtype::F64), pagerank_min_bytes(g, Dtype::F32));
}

// Each block adds its share of a global sum with one atomic, served one at a time: a pull's
// gather blocks each add the change, and the contribution blocks holding a vertex without
// out-edges each add to the dangling rank.
TEST(PagerankEstimate, ChargesOneSumAtomicPerBlockAndDanglingBlock) {
  std::vector<std::pair<int32_t, int32_t>> edges;  // every vertex but 0 and 100 points on
  for (int32_t v = 1; v < 256; ++v)
    if (v != 100) edges.emplace_back(v, (v + 1) % 256);
  const PagerankGraphDigest g = pagerank_graph_digest(graph_of(256, 256, edges, false));
  EXPECT_EQ(g.dangling_runs_of(1), 2);
  EXPECT_EQ(g.dangling_runs_of(64), 2);   // blocks 0 and 1
  EXPECT_EQ(g.dangling_runs_of(128), 1);  // both in block 0
  PagerankConfig pull;
  pull.block = 64;
  const WorkEstimate e = estimate_pagerank(g, pull, Dtype::F32, 10);
  EXPECT_DOUBLE_EQ(e.serial_atomics, 10 * (4 + 2));  // four gather blocks, two dangling ones
  EXPECT_DOUBLE_EQ(e.blocks_dispatched, 10 * (4 + 4 + 1));  // contributions, gather, check
}

// The reference counts its iterations, and the family's estimate charges that many: a graph
// that mixes fast (a random graph) settles in fewer than one that mixes slowly (a long path).
TEST(PagerankEstimate, ChargesTheIterationsTheHostRunTook) {
  const Workload slow = graph_case::graph(graph_case::path(2000));
  const Workload fast = graph_case::graph(generate_rmat(11, 8, 3));
  const PagerankRun slow_run = pagerank_reference(slow.matrix, PagerankProblem{});
  const PagerankRun fast_run = pagerank_reference(fast.matrix, PagerankProblem{});
  EXPECT_EQ(pagerank_reference(slow.matrix, {0.85, 1e-6, 3}).iterations, 3);
  EXPECT_LT(fast_run.iterations, slow_run.iterations);
  const PagerankFamily family;
  const Problem p = make_problem(family, nullptr, Precision::uniform(Dtype::F32));
  const Config c = pagerank_space().first_valid();
  // The loop turns once an iteration and runs its three launches each time, after the start.
  for (const auto& [w, run] : {std::pair{&slow, &slow_run}, std::pair{&fast, &fast_run}}) {
    const WorkEstimate e = family.estimate(*w, p, c);
    EXPECT_EQ(e.loop_iterations, run->iterations);
    const PlanNodes nodes = plan_nodes(family.program(*w, p, c));
    EXPECT_EQ(nodes.per_iteration, 3);
    EXPECT_EQ(e.launches, nodes.outside + 3 * run->iterations);
  }
}

}  // namespace
}  // namespace ktune
