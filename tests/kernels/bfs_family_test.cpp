// The BFS family's contract on the host: its problem (validated, seeded sources, refused
// vertices), its space, its plans (a program that loops per source, in-edges only where a
// pull needs them) and its verifier, which must fail wrong depths and wrong parents.
#include "kernels/bfs/bfs_family.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_problem.h"
#include "tests/kernels/bfs_graphs.h"
#include "tests/kernels/plan_outputs.h"
#include "workload/breadth_first.h"
#include "workload/graph_sources.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using testing_support::output_bytes;
using testing_support::check_data_of;

using testing_support::directed_graph;
using testing_support::star_graph;

Workload graph_workload(CsrF64 g) {
  Workload w;
  w.kind = WorkloadKind::Graph;
  w.matrix = std::move(g);
  return w;
}

Problem bfs_problem(nlohmann::json params = nullptr) {
  return make_problem(BfsFamily(), params, Precision::uniform(Dtype::I32));
}

Config push_queue_config() { return bfs_space().first_valid(); }

Config pull_config() {
  Config c = push_queue_config();
  c["frontier"] = static_cast<int64_t>(BfsFrontier::Bitmap);
  c["direction"] = static_cast<int64_t>(BfsDirection::Pull);
  return c;
}

TEST(BfsFamily, IsRegisteredAsAGraphFamilyOfIntegerOutputs) {
  const KernelFamily* family = find_family("bfs");
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(family->workload_kind(), WorkloadKind::Graph);
  ASSERT_EQ(family->precisions().size(), 1u);
  EXPECT_EQ(family->precisions().front(), Precision::uniform(Dtype::I32));
  EXPECT_THROW(make_problem(*family, nullptr, Precision::uniform(Dtype::F32)), InputError);
  EXPECT_TRUE(family->vendor_calls(graph_workload(star_graph(10)), bfs_problem()).empty());
}

TEST(BfsFamily, TheProblemIsValidatedAndMadeCanonical) {
  EXPECT_EQ(bfs_problem().key(), R"({"parents":false,"sources":[]})");
  EXPECT_EQ(bfs_problem({{"sources", {3, 1}}, {"parents", true}}).key(), R"({"parents":true,"sources":[3,1]})");
  EXPECT_THROW(bfs_problem({{"sources", {-1}}}), InputError);
  EXPECT_THROW(bfs_problem({{"sources", 3}}), InputError);
  EXPECT_THROW(bfs_problem({{"sources", std::vector<int>(kMaxBfsSources + 1, 0)}}), InputError);
  EXPECT_THROW(bfs_problem({{"parents", 1}}), InputError);
  EXPECT_THROW(bfs_problem({{"source", 0}}), InputError);
}

TEST(BfsFamily, SourcesOutsideTheGraphAreRefusedNamingItsVertexCount) {
  const BfsFamily family;
  const Workload w = graph_workload(directed_graph());  // 80 vertices, 70 rows
  EXPECT_NO_THROW(family.check_problem(w, bfs_problem({{"sources", {79}}})));
  try {
    family.check_problem(w, bfs_problem({{"sources", {0, 80}}}));
    FAIL() << "vertex 80 was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("80 vertices"), std::string::npos) << e.what();
  }
  const Workload edgeless = graph_workload(testing_support::graph_of_edges(5, 5, {}));
  EXPECT_THROW(family.check_problem(edgeless, bfs_problem()), InputError);
  EXPECT_NO_THROW(family.check_problem(edgeless, bfs_problem({{"sources", {2}}})));
}

TEST(BfsFamily, WithoutSourcesItTraversesFromTheSeededOnesOneRowEach) {
  const BfsFamily family;
  const Workload w = graph_workload(generate_rmat(9, 4, 2));
  const std::vector<int32_t> sources = seeded_sources(w.matrix, kSeededSources);
  ASSERT_EQ(sources.size(), static_cast<size_t>(kSeededSources));
  const Reference r = family.reference(w, bfs_problem());
  const size_t n = static_cast<size_t>(vertex_count(w.matrix));
  ASSERT_EQ(r.at("depths").size(), sources.size() * n);
  EXPECT_EQ(r.count("parents"), 0u);
  for (size_t row = 0; row < sources.size(); ++row) {
    const BreadthFirst bfs = breadth_first(w.matrix, sources[row]);
    for (size_t v = 0; v < n; ++v) ASSERT_EQ(r.at("depths")[row * n + v], bfs.depth[v]) << row << " " << v;
  }
  const LaunchPlan plan = family.prepare(w, bfs_problem(), push_queue_config());
  ASSERT_EQ(plan.outputs.size(), 1u);
  EXPECT_EQ(plan.outputs[0].elements, sources.size() * n);
  EXPECT_EQ(plan.outputs[0].dtype, Dtype::I32);
}

TEST(BfsFamily, TheSpaceExcludesWhatNoKernelRuns) {
  const ParameterSpace space = bfs_space();
  EXPECT_TRUE(space.valid(space.first_valid()));
  Config c = push_queue_config();
  c["direction"] = static_cast<int64_t>(BfsDirection::Pull);
  EXPECT_FALSE(space.valid(c)) << "a pull over a queue";
  c = push_queue_config();
  c["alpha"] = 16;
  EXPECT_FALSE(space.valid(c)) << "alpha without direction optimising";
  c["direction"] = static_cast<int64_t>(BfsDirection::Optimising);
  EXPECT_TRUE(space.valid(c));
  c = push_queue_config();
  c["dense_shift"] = 4;
  EXPECT_FALSE(space.valid(c)) << "a threshold without the hybrid";
  c = push_queue_config();
  c["schedule"] = static_cast<int64_t>(BfsBalance::Tile);
  c["block"] = 1024;
  c["coarsen"] = 4;
  EXPECT_FALSE(space.valid(c)) << "a tile beyond shared memory";
  EXPECT_THROW(BfsConfig::from(c), InputError);
}

TEST(BfsFamily, ThePlanLoopsOverLevelsOncePerSource) {
  const BfsFamily family;
  const Workload w = graph_workload(directed_graph());
  const Problem p = bfs_problem({{"sources", {0, 62}}, {"parents", true}});
  const LaunchPlan plan = family.prepare(w, p, pull_config());
  EXPECT_NO_THROW(check_plan(plan));
  EXPECT_EQ(family.launches(w, p, pull_config()).size(), plan.steps.size());
  int loops = 0;
  for (const PlanOp& op : plan.program) {
    if (op.kind != PlanOp::Kind::Loop) continue;
    ++loops;
    EXPECT_EQ(op.until_zero, "bfs_state");
    EXPECT_EQ(op.max_iterations, 81);  // one level per vertex at most
  }
  EXPECT_EQ(loops, 2);
  EXPECT_EQ(plan.program.front().kind, PlanOp::Kind::Fill);
  EXPECT_EQ(plan.program.front().buffer, "depths");
  EXPECT_EQ(plan.program.front().word, 0xFFFFFFFFu);
  ASSERT_EQ(plan.outputs.size(), 2u);
  EXPECT_EQ(plan.outputs[1].buffer, "parents");
  for (const LaunchStep& s : plan.steps) {
    if (s.entry == "bfs_pull" || s.entry == "bfs_push_queue") {
      EXPECT_TRUE(s.grid_from.has_value()) << s.entry;
    }
  }
}

TEST(BfsFamily, APullReadsTheTransposeOfADirectedGraphAndAnUndirectedGraphItself) {
  const BfsFamily family;
  const Workload directed = graph_workload(directed_graph());
  const LaunchPlan d = family.prepare(directed, bfs_problem(), pull_config());
  ASSERT_NE(d.buffer("in_col_idx"), nullptr);
  EXPECT_NE(d.buffer("in_col_idx")->bytes.view(), d.buffer("col_idx")->bytes.view());
  EXPECT_EQ(d.buffer("in_row_ptr")->size, 81 * sizeof(int32_t));
  const Workload star = graph_workload(star_graph(50));
  const LaunchPlan s = family.prepare(star, bfs_problem(), pull_config());
  EXPECT_EQ(s.buffer("in_col_idx")->bytes.view().data(), s.buffer("col_idx")->bytes.view().data());
  EXPECT_EQ(family.prepare(star, bfs_problem(), push_queue_config()).buffer("in_col_idx"), nullptr);
  // Every plan of the workload shares one copy of each, whatever was prepared in between, and
  // reports the transpose's cost as its preprocessing.
  const LaunchPlan push = family.prepare(directed, bfs_problem(), push_queue_config());
  EXPECT_EQ(push.prepare_seconds, 0);
  const LaunchPlan pull = family.prepare(directed, bfs_problem(), pull_config());
  EXPECT_EQ(pull.buffer("col_idx")->bytes.data(), push.buffer("col_idx")->bytes.data());
  EXPECT_EQ(pull.buffer("in_col_idx")->bytes.data(), d.buffer("in_col_idx")->bytes.data());
  EXPECT_GT(pull.prepare_seconds, 0);
  EXPECT_EQ(pull.prepare_seconds, d.prepare_seconds);
  // A copy of the workload (which may then change) derives its own.
  const Workload copy = directed;
  EXPECT_NE(family.prepare(copy, bfs_problem(), pull_config()).buffer("in_col_idx")->bytes.data(),
            d.buffer("in_col_idx")->bytes.data());
}

// A square graph's plans read its own arrays, not a copy, and keep them past the workload.
TEST(BfsFamily, PlansBorrowTheGraphsArraysAndKeepThemPastTheWorkload) {
  auto w = std::make_unique<Workload>(graph_workload(star_graph(300)));
  const std::vector<int32_t> row_ptr = w->matrix.row_ptr, col_idx = w->matrix.col_idx;
  const LaunchPlan plan = BfsFamily().prepare(*w, bfs_problem(), push_queue_config());
  EXPECT_EQ(plan.buffer("col_idx")->bytes.data(), reinterpret_cast<const std::byte*>(w->matrix.col_idx.data()));
  EXPECT_EQ(plan.buffer("row_ptr")->bytes.data(), reinterpret_cast<const std::byte*>(w->matrix.row_ptr.data()));
  w.reset();
  const DeviceBuffer& columns = *plan.buffer("col_idx");
  ASSERT_EQ(columns.bytes.size(), col_idx.size() * sizeof(int32_t));
  EXPECT_EQ(std::memcmp(columns.bytes.data(), col_idx.data(), columns.bytes.size()), 0);
  EXPECT_EQ(std::memcmp(plan.buffer("row_ptr")->bytes.data(), row_ptr.data(), row_ptr.size() * sizeof(int32_t)), 0);
}

TEST(BfsFamily, TheVerifierFailsWrongDepthsAndWrongParents) {
  const BfsFamily family;
  const Workload w = graph_workload(directed_graph());
  const Problem p = bfs_problem({{"sources", {0, 62}}, {"parents", true}});
  const LaunchPlan plan = family.prepare(w, p, push_queue_config());
  const Reference r = family.reference(w, p);
  const CheckData data = check_data_of(plan);
  const PlanOutput& depths = plan.outputs[0];
  const PlanOutput& parents = plan.outputs[1];
  const std::vector<double>& ref_parents = r.at("parents");
  EXPECT_TRUE(family.verify(p, depths, output_bytes(r.at("depths"), Dtype::I32), r.at("depths"), data).ok);
  EXPECT_TRUE(family.verify(p, parents, output_bytes(ref_parents, Dtype::I32), ref_parents, data).ok);

  std::vector<double> wrong = r.at("depths");
  wrong[5] += 1;
  EXPECT_FALSE(family.verify(p, depths, output_bytes(wrong, Dtype::I32), r.at("depths"), data).ok);

  const size_t n = 80;
  // Vertex 7's parent is 2 (a tree edge 2→7); vertex 1 is at depth 1 too, but 1→7 is no edge.
  ASSERT_EQ(ref_parents[7], 2);
  std::vector<double> no_edge = ref_parents;
  no_edge[7] = 1;
  const Verdict missing_edge = family.verify(p, parents, output_bytes(no_edge, Dtype::I32), ref_parents, data);
  EXPECT_FALSE(missing_edge.ok);
  EXPECT_NE(missing_edge.message.find("no edge"), std::string::npos) << missing_edge.message;
  std::vector<double> wrong_level = ref_parents;
  wrong_level[7] = 0;  // the source, two levels up
  EXPECT_FALSE(family.verify(p, parents, output_bytes(wrong_level, Dtype::I32), ref_parents, data).ok);
  std::vector<double> unreached = ref_parents;
  unreached[n + 0] = 62;  // vertex 0 is not reached from 62 (only its cycle and what 65→3 leads to are)
  EXPECT_FALSE(family.verify(p, parents, output_bytes(unreached, Dtype::I32), ref_parents, data).ok);
  std::vector<double> source = ref_parents;
  source[n + 62] = 61;
  EXPECT_FALSE(family.verify(p, parents, output_bytes(source, Dtype::I32), ref_parents, data).ok);
  std::vector<double> poisoned = ref_parents;
  poisoned[30] = 0x7FF87FF8;
  EXPECT_FALSE(family.verify(p, parents, output_bytes(poisoned, Dtype::I32), ref_parents, data).ok);
}

TEST(BfsFamily, TheEstimateSeesTheSkewAThreadPerVertexSuffers) {
  const BfsFamily family;
  const Workload w = graph_workload(star_graph(4000));
  const Problem p = bfs_problem();
  Config thread = push_queue_config();
  thread["block"] = 256;
  Config tile = thread;
  tile["schedule"] = static_cast<int64_t>(BfsBalance::Tile);
  const WorkEstimate t = family.estimate(w, p, thread);
  const WorkEstimate b = family.estimate(w, p, tile);
  ASSERT_EQ(t.warp_work.size(), static_cast<size_t>(t.blocks * 8));
  EXPECT_GT(*std::max_element(t.warp_work.begin(), t.warp_work.end()),
            4 * *std::max_element(b.warp_work.begin(), b.warp_work.end()));
  EXPECT_GT(family.min_bytes(w, p), 4.0 * w.matrix.nnz());
  EXPECT_GT(family.flops(w, p), 0);
}


// The estimate runs the configuration's switches over the graph's real levels: on a star, whose
// second level holds every other vertex, a direction-optimising BFS pulls that level, and with a
// thread a vertex each leaf stops at its first in-edge (the centre), reading far fewer bytes
// than the push (a sector for each of the centre's edges) or than a pull at every level.
TEST(BfsFamily, TheEstimateFollowsTheLevelsEachSwitchChooses) {
  const BfsFamily family;
  const Workload w = graph_workload(star_graph(4000));
  const Problem p = bfs_problem({{"sources", {7}}});
  Config optimising = push_queue_config();
  optimising["direction"] = static_cast<int64_t>(BfsDirection::Optimising);
  optimising["frontier"] = static_cast<int64_t>(BfsFrontier::Hybrid);
  const double push = family.estimate(w, p, push_queue_config()).dram_bytes;
  const double switching = family.estimate(w, p, optimising).dram_bytes;
  const double pull = family.estimate(w, p, pull_config()).dram_bytes;
  EXPECT_LT(switching, 0.5 * push);
  EXPECT_LT(switching, pull);
}
}  // namespace
}  // namespace ktune
