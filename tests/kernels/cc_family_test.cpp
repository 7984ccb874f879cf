// The connected-components family on the host: its reference on graphs whose components are
// known, its verifier (the same partition passes under any labels; a merge, a split or an
// unwritten label fails), the edges it reads both ways, its plan and its estimates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <set>

#include "kernels/cc/cc_family.h"
#include "kernels/cc/cc_reference.h"
#include "kernels/cc/cc_edges.h"
#include "kernels/graph/graph_transpose.h"
#include "kernels/graph/lane_group_work.h"
#include "tests/kernels/graph_cases.h"
#include "workload/breadth_first.h"
#include "workload/generators.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

namespace graph_case = testing_support::graph_case;

std::string label_bytes(const std::vector<int32_t>& labels) {
  std::string bytes(labels.size() * sizeof(int32_t), '\0');
  std::memcpy(bytes.data(), labels.data(), bytes.size());
  return bytes;
}

std::vector<double> as_doubles(const std::vector<int32_t>& v) { return {v.begin(), v.end()}; }

Workload graph(CsrF64 m) {
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = std::move(m);
  return w;
}

Config config(CcAlgorithm algorithm, CcSchedule schedule, int64_t jumps) {
  return {{"algorithm", static_cast<int64_t>(algorithm)}, {"schedule", static_cast<int64_t>(schedule)},
          {"block", 128}, {"lanes", 1}, {"items", 1}, {"jumps", jumps}};
}

TEST(CcReference, LabelsEachVertexWithTheSmallestOfItsComponent) {
  EXPECT_EQ(cc_reference(graph_case::path(5)), (std::vector<int32_t>{0, 0, 0, 0, 0}));
  EXPECT_EQ(cc_reference(graph_case::star(4)), (std::vector<int32_t>{0, 0, 0, 0}));
  //                                       0  1  2  3  4  5  6  7  8  9 10 11 12 13 14
  EXPECT_EQ(cc_reference(graph_case::components()), (std::vector<int32_t>{0, 1, 2, 3, 1, 5, 6, 3, 8, 3, 1, 11, 1, 0, 14}));
  // Weakly connected: edges count both ways.
  EXPECT_EQ(cc_reference(graph_case::directed()), (std::vector<int32_t>{0, 0, 2, 2, 2, 0, 0, 0, 8, 8}));
}

TEST(CcVerify, TheSamePartitionPassesUnderAnyLabels) {
  const std::vector<int32_t> reference = cc_reference(graph_case::components());
  EXPECT_TRUE(check_same_partition(label_bytes(reference), Dtype::I32, as_doubles(reference)).ok);
  // Relabelled: every label v becomes 14 - v (still vertex ids, now the largest of nothing).
  std::vector<int32_t> relabelled = reference;
  for (int32_t& l : relabelled) l = 14 - l;
  const Verdict v = check_same_partition(label_bytes(relabelled), Dtype::I32, as_doubles(reference));
  EXPECT_TRUE(v.ok) << v.message;
}

TEST(CcVerify, AMergeASplitOrAnUnwrittenLabelFails) {
  const std::vector<int32_t> reference = cc_reference(graph_case::components());
  std::vector<int32_t> merged = reference;
  for (int32_t& l : merged) l = l == 3 ? 1 : l;  // the triangle joins the path
  const Verdict m = check_same_partition(label_bytes(merged), Dtype::I32, as_doubles(reference));
  EXPECT_FALSE(m.ok);
  EXPECT_NE(m.message.find("merged"), std::string::npos) << m.message;

  std::vector<int32_t> split = reference;
  split[9] = 9;  // one corner of the triangle alone
  const Verdict s = check_same_partition(label_bytes(split), Dtype::I32, as_doubles(reference));
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("split"), std::string::npos) << s.message;

  // An isolated vertex the kernel never wrote: a component of its own, but no vertex's label.
  std::vector<int32_t> unwritten = reference;
  unwritten[14] = 0x7FF87FF8;
  EXPECT_FALSE(check_same_partition(label_bytes(unwritten), Dtype::I32, as_doubles(reference)).ok);

  EXPECT_FALSE(check_same_partition(label_bytes({0, 0}), Dtype::I32, as_doubles(reference)).ok);
  EXPECT_FALSE(check_same_partition(std::string(reference.size() * 4, '\0'), Dtype::F32, as_doubles(reference)).ok);
}

std::vector<int32_t> ints(const HostBytes& bytes) {
  std::vector<int32_t> v(bytes.size() / sizeof(int32_t));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

// Every entry's row found by the search equals the row that holds it, and the list's edges,
// (row, column), are the graph's undirected edges (self-loops aside): each at least once, exactly
// once where the list is its own copy.
void expect_edge_list_covers(const CsrF64& graph) {
  const Workload w = graph_case::graph(graph);
  const std::shared_ptr<const CcEdgeList> list = cc_edge_list(w);
  const std::vector<int32_t> row_ptr = ints(list->row_ptr), col_idx = ints(list->col_idx);
  const std::vector<int32_t> chunk_row = ints(list->chunk_row);
  const bool own_copy = reinterpret_cast<const int32_t*>(list->col_idx.data()) != w.matrix.col_idx.data();
  const int32_t n = vertex_count(graph);
  ASSERT_EQ(row_ptr.size(), static_cast<size_t>(n) + 1);
  ASSERT_EQ(list->entries, row_ptr.back());
  ASSERT_EQ(chunk_row.size(), static_cast<size_t>((list->entries + kCcChunk - 1) / kCcChunk) + 1);
  std::set<std::pair<int32_t, int32_t>> listed;
  for (int32_t r = 0; r < n; ++r)
    for (int32_t e = row_ptr[static_cast<size_t>(r)]; e < row_ptr[static_cast<size_t>(r) + 1]; ++e) {
      EXPECT_EQ(row_of_entry(row_ptr, chunk_row, e), r) << e;
      const int32_t c = col_idx[static_cast<size_t>(e)];
      // A copy holds each edge in the row of its smaller end, rows sorted: the upper triangle's
      // order.
      EXPECT_TRUE(c > r || !own_copy) << "entry " << e << " (" << r << ", " << c << ") of the copy";
      EXPECT_TRUE(e == row_ptr[static_cast<size_t>(r)] || col_idx[static_cast<size_t>(e) - 1] < c || !own_copy);
      if (c == r) continue;
      EXPECT_TRUE(listed.insert({std::min(r, c), std::max(r, c)}).second || !own_copy) << r << " " << c;
    }
  std::set<std::pair<int32_t, int32_t>> edges;
  for (int32_t r = 0; r < graph.rows; ++r)
    for (int32_t k = graph.row_ptr[r]; k < graph.row_ptr[r + 1]; ++k)
      if (const int32_t c = graph.col_idx[static_cast<size_t>(k)]; c != r) edges.insert({std::min(r, c), std::max(r, c)});
  EXPECT_EQ(listed, edges);
}

// directed() with the reverse of all but its last two edges: most pairs stored both ways.
CsrF64 mostly_reciprocal() {
  return graph_case::graph_of(10, 10,
                              {{5, 6}, {6, 7}, {7, 5}, {0, 1}, {1, 5}, {8, 9}, {2, 3}, {4, 3}, {6, 5}, {7, 6}, {5, 7},
                               {1, 0}, {5, 1}, {9, 8}},
                              false);
}

TEST(CcEdges, TheEdgeListHoldsEveryUndirectedEdgeAndFindsEachEntrysRow) {
  expect_edge_list_covers(graph_case::directed());
  expect_edge_list_covers(mostly_reciprocal());
  expect_edge_list_covers(graph_case::components());
  expect_edge_list_covers(graph_case::path(300));
  expect_edge_list_covers(graph_case::star(200));
  // Many chunks over rows of every length, empty ones between (isolated vertices).
  expect_edge_list_covers(generate_rmat(10, 8, 3, {}, false));
  expect_edge_list_covers(generate_rmat(8, 1, 5, {}, false));
  // A symmetric graph's list is its upper triangle, a copy; so is a graph whose pairs are mostly
  // stored both ways. A directed graph without such pairs lists its own entries, no copy.
  const Workload path = graph_case::graph(graph_case::path(300));
  EXPECT_EQ(cc_edge_list(path)->entries, 299);
  const Workload reciprocal = graph_case::graph(mostly_reciprocal());
  EXPECT_EQ(cc_edge_list(reciprocal)->entries, 8);
  const Workload directed = graph_case::graph(graph_case::directed());
  EXPECT_EQ(reinterpret_cast<const int32_t*>(cc_edge_list(directed)->col_idx.data()), directed.matrix.col_idx.data());
}

// The out-list and the rest of the in-list: every neighbour of the undirected graph once.
TEST(CcEdges, NeighboursAreTheOutListAndTheRestOfTheInList) {
  for (const CsrF64& graph : {graph_case::directed(), mostly_reciprocal(), graph_case::components(),
                              generate_rmat(10, 8, 3, {}, false)}) {
    const Workload w = graph_case::graph(graph);
    const CcNeighbours neighbours = cc_neighbours(w);
    const std::vector<int32_t> out_ptr = ints(neighbours.out->row_ptr), out_col = ints(neighbours.out->col_idx);
    const std::vector<int32_t> rest_ptr = ints(neighbours.rest->row_ptr), rest_col = ints(neighbours.rest->col_idx);
    const CsrF64 in = transpose_graph(graph);
    const int32_t n = vertex_count(graph);
    for (int32_t v = 0; v < n; ++v) {
      std::multiset<int32_t> got(out_col.begin() + out_ptr[static_cast<size_t>(v)],
                                 out_col.begin() + out_ptr[static_cast<size_t>(v) + 1]);
      got.insert(rest_col.begin() + rest_ptr[static_cast<size_t>(v)], rest_col.begin() + rest_ptr[static_cast<size_t>(v) + 1]);
      std::set<int32_t> want(got.begin(), got.end());
      EXPECT_EQ(got.size(), want.size()) << "vertex " << v << " lists a neighbour twice";
      std::set<int32_t> both(out_col.begin() + out_ptr[static_cast<size_t>(v)],
                             out_col.begin() + out_ptr[static_cast<size_t>(v) + 1]);
      if (v < in.rows)
        both.insert(in.col_idx.begin() + in.row_ptr[v], in.col_idx.begin() + in.row_ptr[v + 1]);
      EXPECT_EQ(want, both) << "vertex " << v;
    }
  }
  EXPECT_TRUE(cc_neighbours(graph_case::graph(graph_case::directed())).both_ways);
  EXPECT_FALSE(cc_neighbours(graph_case::graph(graph_case::path(6))).both_ways);
}

TEST(CcFamily, TakesOnlyI32AndNoProblemParameters) {
  const CcFamily family;
  EXPECT_NO_THROW(make_problem(family, nullptr, Precision::uniform(Dtype::I32)));
  EXPECT_THROW(make_problem(family, nullptr, Precision::uniform(Dtype::F32)), InputError);
  EXPECT_THROW(make_problem(family, {{"damping", 0.5}}, Precision::uniform(Dtype::I32)), InputError);
}

TEST(CcFamily, HookingWithoutJumpsIsRefused) {
  EXPECT_FALSE(cc_space().valid(config(CcAlgorithm::Hooking, CcSchedule::Vertex, 0)));
  EXPECT_TRUE(cc_space().valid(config(CcAlgorithm::LabelPropagation, CcSchedule::Vertex, 0)));
  Config lanes_on_edges = config(CcAlgorithm::Hooking, CcSchedule::Edge, 1);
  lanes_on_edges["lanes"] = 4;
  EXPECT_FALSE(cc_space().valid(lanes_on_edges));
  // Union-find's compression is its own: no jumping rounds.
  EXPECT_TRUE(cc_space().valid(config(CcAlgorithm::UnionFind, CcSchedule::Edge, 0)));
  EXPECT_FALSE(cc_space().valid(config(CcAlgorithm::UnionFind, CcSchedule::Vertex, 1)));
}

TEST(CcFamily, UnionFindRunsOnePassAndACompressionWithoutALoop) {
  const CcFamily family;
  const Workload w = graph(graph_case::components());
  const Problem p = Problem::of(Dtype::I32);
  for (CcSchedule schedule : {CcSchedule::Vertex, CcSchedule::Edge}) {
    const Config c = config(CcAlgorithm::UnionFind, schedule, 0);
    const LaunchPlan plan = family.prepare(w, p, c);
    EXPECT_NO_THROW(check_plan(plan));
    ASSERT_EQ(plan.steps.size(), 3u);
    EXPECT_EQ(plan.steps[0].entry, "cc_init");
    EXPECT_EQ(plan.steps[1].entry, schedule == CcSchedule::Vertex ? "cc_vertex" : "cc_edge");
    EXPECT_EQ(plan.steps[2].entry, "cc_compress");
    ASSERT_EQ(plan.program.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(plan.program[i].kind, PlanOp::Kind::Launch);
      EXPECT_EQ(plan.program[i].launch, i);
    }
    const KernelSource source = family.source(p, c);
    EXPECT_NE(std::find(source.entries.begin(), source.entries.end(), "cc_compress"), source.entries.end());
  }
}

TEST(CcFamily, ThePlanLoopsUntilNothingChangesWithAVertexBound) {
  const CcFamily family;
  const Workload w = graph(graph_case::components());
  const Problem p = Problem::of(Dtype::I32);
  const LaunchPlan plan = family.prepare(w, p, config(CcAlgorithm::Hooking, CcSchedule::Edge, 2));
  EXPECT_NO_THROW(check_plan(plan));
  ASSERT_EQ(plan.steps.size(), 3u);
  EXPECT_EQ(plan.steps[0].entry, "cc_init");
  EXPECT_EQ(plan.steps[1].entry, "cc_edge");
  EXPECT_EQ(plan.steps[2].entry, "cc_jump");
  ASSERT_EQ(plan.program.size(), 2u);
  const PlanOp& loop = plan.program[1];
  ASSERT_EQ(loop.kind, PlanOp::Kind::Loop);
  EXPECT_EQ(loop.until_zero, "changed");
  EXPECT_EQ(loop.max_iterations, 16);
  ASSERT_EQ(loop.body.size(), 3u);
  EXPECT_EQ(loop.body[0].kind, PlanOp::Kind::Fill);  // the flag cleared before each pass
  ASSERT_EQ(plan.outputs.size(), 1u);
  EXPECT_EQ(plan.outputs[0].dtype, Dtype::I32);
  EXPECT_EQ(plan.outputs[0].elements, 15u);
  // Without jumps there is no jump launch; the vertex schedule reads the graph's own lists, of
  // a symmetric graph the out-lists alone.
  const LaunchPlan lp = family.prepare(w, p, config(CcAlgorithm::LabelPropagation, CcSchedule::Vertex, 0));
  EXPECT_EQ(lp.steps.size(), 2u);
  EXPECT_EQ(lp.buffer("col_idx")->size, static_cast<size_t>(w.matrix.nnz()) * 4);
  EXPECT_EQ(std::get<int32_t>(lp.steps[1].args[5].scalar), 0);
  // Every configuration of the schedule shares one copy of its inputs.
  const LaunchPlan next = family.prepare(w, p, config(CcAlgorithm::Hooking, CcSchedule::Vertex, 1));
  EXPECT_EQ(next.buffer("col_idx")->bytes.data(), lp.buffer("col_idx")->bytes.data());
}

TEST(CcEstimate, PropagationAlongAPathTakesMoreIterationsThanHooking) {
  const CcGraphDigest g = cc_graph_digest(graph(graph_case::path(1000)));
  EXPECT_EQ(g.depth, 999);
  EXPECT_EQ(g.edge_entries, 999);
  EXPECT_FALSE(g.both_ways);
  // Depth counts edges either way: a chain 0 -> 1 -> 5 -> 6 -> 7 -> 5 reaches 7 at 3 (5 -> 7
  // taken backwards), and nothing beyond it from 0.
  EXPECT_EQ(cc_graph_digest(graph(graph_case::directed())).depth, 3);
  EXPECT_EQ(cc_graph_digest(graph(graph_case::directed())).adjacency, 2 * graph_case::directed().nnz());
  const CcConfig propagation = CcConfig::from(config(CcAlgorithm::LabelPropagation, CcSchedule::Vertex, 0));
  const CcConfig hooking = CcConfig::from(config(CcAlgorithm::Hooking, CcSchedule::Vertex, 1));
  EXPECT_GT(cc_expected_iterations(g, propagation), 10 * cc_expected_iterations(g, hooking));
  const WorkEstimate slow = estimate_cc(g, propagation);
  const WorkEstimate fast = estimate_cc(g, hooking);
  EXPECT_GT(slow.dram_bytes, fast.dram_bytes);
  EXPECT_EQ(slow.blocks, 8);  // 1000 vertices, 128 a block
  EXPECT_EQ(slow.warp_work.size(), 8u * 4u);
  EXPECT_GT(cc_min_bytes(g), 0);
  EXPECT_EQ(slow.loop_iterations, static_cast<double>(cc_expected_iterations(g, propagation)));
  // One union-find pass reads the graph once: less than hooking's iterations, and no loop.
  const CcConfig union_find = CcConfig::from(config(CcAlgorithm::UnionFind, CcSchedule::Vertex, 0));
  EXPECT_EQ(cc_expected_iterations(g, union_find), 1);
  const WorkEstimate once = estimate_cc(g, union_find);
  EXPECT_LT(once.dram_bytes, fast.dram_bytes);
  EXPECT_EQ(once.loop_iterations, 0);
  // Its trips unite (finds and a compare-and-swap, one after another) on labels it reads first:
  // 2.5 round trips a trip, each at DRAM's latency; propagation's gathers overlap four deep.
  EXPECT_TRUE(once.rounds_read_dram);
  EXPECT_FALSE(slow.rounds_read_dram);
  const CcConfig c = CcConfig::from(config(CcAlgorithm::UnionFind, CcSchedule::Vertex, 0));
  const std::vector<float> trips = lane_group_warp_work(g.degrees, c.block, c.lanes, c.items, once.blocks, 1);
  ASSERT_EQ(once.warp_work.size(), trips.size());
  for (size_t i = 0; i < trips.size(); ++i) EXPECT_DOUBLE_EQ(once.warp_work[i], 2.5 * trips[i]);
}

}  // namespace
}  // namespace ktune
