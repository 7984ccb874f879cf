#include "kernels/cc/cc_family.h"

#include <algorithm>
#include <climits>

#include "kernel_templates.h"
#include "kernels/cc/cc_contention.h"
#include "kernels/cc/cc_reference.h"
#include "kernels/cc/cc_twins.h"
#include "kernels/cc/cc_edges.h"
#include "kernels/device_buffers.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

uint32_t grid_of(int64_t items, int64_t per_block) {
  return static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(items, per_block)));
}

// init, the edge pass, then pointer jumping when the configuration jumps or union-find's
// compression.
std::vector<LaunchStep> cc_launches(const CcConfig& c, int32_t vertices, const CcGraphDigest& g) {
  const Dim3 block{static_cast<uint32_t>(c.block), 1, 1};
  LaunchStep init{"cc_init", {grid_of(vertices, c.block), 1, 1}, block, 0,
                  {KernelArg::of_scalar(vertices), KernelArg::of_buffer("label")}, {}};
  LaunchStep pass;
  pass.block = block;
  if (c.schedule == CcSchedule::Vertex) {
    pass.entry = "cc_vertex";
    pass.grid.x = grid_of(vertices, c.work_per_block());
    pass.args = {KernelArg::of_scalar(vertices),     KernelArg::of_buffer("row_ptr"),
                 KernelArg::of_buffer("col_idx"),    KernelArg::of_buffer("rest_ptr"),
                 KernelArg::of_buffer("rest_idx"),   KernelArg::of_scalar(int32_t{g.both_ways})};
  } else {
    pass.entry = "cc_edge";
    pass.grid.x = grid_of(g.edge_entries, c.work_per_block());
    pass.args = {KernelArg::of_scalar(static_cast<int32_t>(g.edge_entries)), KernelArg::of_buffer("edge_ptr"),
                 KernelArg::of_buffer("edge_col"), KernelArg::of_buffer("edge_chunk_row")};
  }
  pass.args.push_back(KernelArg::of_buffer("label"));
  pass.args.push_back(KernelArg::of_buffer("changed"));
  std::vector<LaunchStep> steps = {init, pass};
  const bool union_find = c.algorithm == CcAlgorithm::UnionFind;
  if (c.jumps > 0 || union_find)
    steps.push_back({union_find ? "cc_compress" : "cc_jump", {grid_of(vertices, c.block), 1, 1}, block, 0,
                     {KernelArg::of_scalar(vertices), KernelArg::of_buffer("label")}, {}});
  return steps;
}

// Labels start as the vertices themselves; then iterations of the edge pass (and jumping)
// until one finds every edge's ends labelled alike. Every iteration moves the smallest label
// of a component at least one hop further, so vertices + 1 iterations always suffice.
// Union-find needs no loop: init, its one edge pass, the compression.
std::vector<PlanOp> cc_program(const CcConfig& c, int32_t vertices) {
  if (c.algorithm == CcAlgorithm::UnionFind) return {PlanOp::run(0), PlanOp::run(1), PlanOp::run(2)};
  std::vector<PlanOp> body = {PlanOp::fill("changed", 0), PlanOp::run(1)};
  if (c.jumps > 0) body.push_back(PlanOp::run(2));
  const int bound = static_cast<int>(std::min<int64_t>(int64_t{vertices} + 1, INT_MAX));
  return {PlanOp::run(0), PlanOp::loop(std::move(body), "changed", bound)};
}

}  // namespace

std::string CcFamily::description() const {
  return "Connected components (weakly connected for a directed graph: edges taken both ways), an i32 label "
         "per vertex: min-label propagation or Shiloach–Vishkin hooking with pointer jumping, looping on the "
         "device until an iteration changes nothing, or one union-find pass (ECL-CC's hooking of roots by "
         "compare-and-swap) and a compression; the edge pass a thread or a sub-warp of lanes per vertex "
         "(vertex) or a thread per edge (edge)";
}

std::shared_ptr<const CcGraphDigest> CcFamily::digest(const Workload& w) const {
  return w.derived.get<CcGraphDigest>("cc.digest", [&w] { return cc_graph_digest(w); });
}

KernelSource CcFamily::source(const Problem&, const Config& config) const {
  const CcConfig c = CcConfig::from(config);
  KernelSource s;
  s.code = std::string(templates::k_cc_common_cuh) + std::string(templates::k_cc_labels_cu) +
           std::string(c.schedule == CcSchedule::Vertex ? templates::k_cc_vertex_cu : templates::k_cc_edge_cu);
  s.entries = {c.schedule == CcSchedule::Vertex ? "cc_vertex" : "cc_edge", "cc_init"};
  if (c.jumps > 0) s.entries.push_back("cc_jump");
  if (c.algorithm == CcAlgorithm::UnionFind) s.entries.push_back("cc_compress");
  s.options = {"-DKT_BLOCK=" + std::to_string(c.block), "-DKT_ITEMS=" + std::to_string(c.items),
               "-DKT_LANES=" + std::to_string(c.lanes), "-DKT_JUMPS=" + std::to_string(c.jumps),
               "-DKT_ALGORITHM=" + std::to_string(static_cast<int>(c.algorithm)),
               "-DKT_CHUNK=" + std::to_string(kCcChunk)};
  return s;
}

std::vector<LaunchStep> CcFamily::launches(const Workload& w, const Problem&, const Config& config) const {
  const CcConfig c = CcConfig::from(config);
  return cc_launches(c, vertex_count(w.matrix), *digest(w));
}

std::vector<PlanOp> CcFamily::program(const Workload& w, const Problem&, const Config& config) const {
  return cc_program(CcConfig::from(config), vertex_count(w.matrix));
}

LaunchPlan CcFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const CcConfig c = CcConfig::from(config);
  const int32_t n = vertex_count(w.matrix);
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  // Each schedule's inputs are built once per workload and shared by its plans.
  if (c.schedule == CcSchedule::Vertex) {
    const CcNeighbours neighbours = cc_neighbours(w);
    plan.buffers = neighbours.out->buffers("row_ptr", "col_idx");
    for (DeviceBuffer& b : neighbours.rest->buffers("rest_ptr", "rest_idx")) plan.buffers.push_back(std::move(b));
    plan.prepare_seconds = neighbours.out->build_seconds + neighbours.rest->build_seconds;
  } else {
    const std::shared_ptr<const CcEdgeList> list = cc_edge_list(w);
    plan.buffers = {{"edge_ptr", list->row_ptr, list->row_ptr.size()},
                    {"edge_col", list->col_idx, list->col_idx.size()},
                    {"edge_chunk_row", list->chunk_row, list->chunk_row.size()}};
    plan.prepare_seconds = list->build_seconds;
  }
  plan.buffers.push_back(output_buffer("label", static_cast<size_t>(std::max(n, 1)), Dtype::I32));
  plan.buffers.push_back(output_buffer("changed", 1, Dtype::I32));
  plan.outputs = {{"label", static_cast<size_t>(n), Dtype::I32}};
  plan.steps = cc_launches(c, n, *digest(w));
  plan.program = cc_program(c, n);
  plan.twins = cc_twins(c);
  return plan;
}

Reference CcFamily::reference(const Workload& w, const Problem&) const {
  const std::vector<int32_t> labels = cc_reference(w.matrix);
  return {{"label", std::vector<double>(labels.begin(), labels.end())}};
}

Verdict CcFamily::verify(const Problem&, const PlanOutput& output, std::string_view got,
                         const std::vector<double>& expected, const CheckData&) const {
  return check_same_partition(got, output.dtype, expected);
}

WorkEstimate CcFamily::estimate(const Workload& w, const Problem&, const Config& config) const {
  const CcConfig c = CcConfig::from(config);
  WorkEstimate e = estimate_cc(*digest(w), c);
  if (c.algorithm == CcAlgorithm::UnionFind) {
    const auto waits =
        w.derived.get<std::map<UnionWaitKey, UnionRounds>>("cc.union_waits", [&w] { return union_find_waits(w); });
    const bool by_edge = c.schedule == CcSchedule::Edge;
    const UnionRounds& rounds =
        waits->at({c.schedule, by_edge ? c.block : kVertexRoundsBlock, by_edge ? 1 : c.lanes, c.items});
    charge_union_rounds(e, rounds);
  }
  e.launches = plan_nodes(cc_program(c, vertex_count(w.matrix))).launches(e.loop_iterations);
  return e;
}

double CcFamily::flops(const Workload& w, const Problem&) const {
  return static_cast<double>(std::max<int64_t>(digest(w)->adjacency, 1));
}

double CcFamily::min_bytes(const Workload& w, const Problem&) const { return cc_min_bytes(*digest(w)); }

std::vector<std::string_view> CcFamily::templates() const {
  return {templates::k_cc_common_cuh, templates::k_cc_labels_cu, templates::k_cc_vertex_cu, templates::k_cc_edge_cu};
}

std::unique_ptr<KernelFamily> make_cc_family() { return std::make_unique<CcFamily>(); }

}  // namespace ktune
