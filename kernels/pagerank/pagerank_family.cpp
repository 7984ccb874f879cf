#include "kernels/pagerank/pagerank_family.h"

#include <algorithm>

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/graph/graph_inputs.h"
#include "kernels/pagerank/pagerank_reference.h"
#include "kernels/pagerank/pagerank_twins.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

uint32_t grid_of(int64_t items, int64_t per_block) {
  return static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(items, per_block)));
}

// "in_row": the head of every in-edge, in the order of in_idx (at least one entry).
DeviceBuffer in_edge_heads(const GraphEdges& in_edges) {
  const auto* row_ptr = reinterpret_cast<const int32_t*>(in_edges.row_ptr.data());
  const size_t vertices = in_edges.row_ptr.size() / sizeof(int32_t) - 1;
  std::vector<int32_t> heads(std::max<size_t>(in_edges.col_idx.size() / sizeof(int32_t), 1), 0);
  for (size_t v = 0; v < vertices; ++v)
    std::fill(heads.begin() + row_ptr[v], heads.begin() + row_ptr[v + 1], static_cast<int32_t>(v));
  return index_buffer("in_row", heads);
}

KernelArg value_arg(double x, Dtype dtype) {
  return dtype == Dtype::F64 ? KernelArg::of_scalar(x) : KernelArg::of_scalar(static_cast<float>(x));
}

// init; the iteration's launches (pull: the contributions, then the gather; push: the scatter,
// then the new ranks; pull over edges: all three); the check of the change.
std::vector<LaunchStep> pagerank_launches(const PagerankConfig& c, const PagerankProblem& problem, int32_t n,
                                          int64_t edges, Dtype dtype) {
  const Dim3 block{static_cast<uint32_t>(c.block), 1, 1};
  const Dim3 per_vertex{grid_of(n, c.block), 1, 1};
  const int64_t pass_items = c.direction == PagerankDirection::PullEdges ? edges : n;
  const Dim3 edge_pass{grid_of(pass_items, c.items_per_block()), 1, 1};
  const std::vector<KernelArg> update = {value_arg((1 - problem.damping) / std::max(n, 1), dtype),
                                         value_arg(problem.damping, dtype), value_arg(1.0 / std::max(n, 1), dtype)};
  auto buffers = [](std::initializer_list<const char*> names) {
    std::vector<KernelArg> args;
    for (const char* name : names) args.push_back(KernelArg::of_buffer(name));
    return args;
  };
  auto with = [](KernelArg first, std::vector<KernelArg> rest, const std::vector<KernelArg>& last = {}) {
    rest.insert(rest.begin(), first);
    rest.insert(rest.end(), last.begin(), last.end());
    return rest;
  };
  const KernelArg count = KernelArg::of_scalar(n);
  const LaunchStep contrib{"pagerank_contrib", per_vertex, block, 0,
                           with(count, buffers({"out_degree", "rank", "contrib", "sums"})), {}};
  const LaunchStep finish{"pagerank_finish", per_vertex, block, 0, with(count, buffers({"next", "rank", "sums"}), update),
                          {}};
  std::vector<LaunchStep> steps = {{"pagerank_init", per_vertex, block, 0, with(count, buffers({"rank"})), {}}};
  switch (c.direction) {
    case PagerankDirection::Pull:
      steps.push_back(contrib);
      steps.push_back({"pagerank_pull", edge_pass, block, 0,
                       with(count, buffers({"in_ptr", "in_idx", "contrib", "rank", "sums"}), update), {}});
      break;
    case PagerankDirection::Push:
      steps.push_back({"pagerank_scatter", edge_pass, block, 0,
                       with(count, buffers({"row_ptr", "col_idx", "rank", "next", "sums"})), {}});
      steps.push_back(finish);
      break;
    case PagerankDirection::PullEdges:
      steps.push_back(contrib);
      steps.push_back({"pagerank_pull_edges", edge_pass, block, 0,
                       with(KernelArg::of_scalar(static_cast<int32_t>(edges)),
                            buffers({"in_row", "in_idx", "contrib", "next"})),
                       {}});
      steps.push_back(finish);
      break;
  }
  steps.push_back({"pagerank_check", {1, 1, 1}, {1, 1, 1}, 0,
                   with(value_arg(problem.tolerance, dtype), buffers({"sums", "active"})), {}});
  return steps;
}

// The sums start cleared (pagerank_check clears them after each iteration), `next` too where
// there is one (pagerank_finish clears it); then iterations until the check finds the change
// below the tolerance, at most max_iterations.
std::vector<PlanOp> pagerank_program(const PagerankConfig& c, const PagerankProblem& problem) {
  std::vector<PlanOp> program = {PlanOp::run(0), PlanOp::fill("sums", 0)};
  if (c.direction != PagerankDirection::Pull) program.push_back(PlanOp::fill("next", 0));
  std::vector<PlanOp> iteration = {PlanOp::run(1), PlanOp::run(2), PlanOp::run(3)};
  if (c.direction == PagerankDirection::PullEdges) iteration.push_back(PlanOp::run(4));
  program.push_back(PlanOp::loop(std::move(iteration), "active", problem.max_iterations));
  return program;
}

}  // namespace

std::string PagerankFamily::description() const {
  return "PageRank by power iteration (damping, L1 tolerance and an iteration bound in the problem; vertices "
         "without out-edges spread their rank uniformly): pull, gathering over in-edges with SpMV's row "
         "schedules (a thread or a sub-warp of lanes per vertex) or split by edges (a thread per in-edge, summed "
         "by head in each warp), or push, scattering along out-edges with atomics; looping on the device until "
         "the ranks change by less than the tolerance";
}

ProblemSchema PagerankFamily::problem_schema() const { return pagerank_schema(); }

std::shared_ptr<const PagerankGraphDigest> PagerankFamily::digest(const Workload& w) const {
  return w.derived.get<PagerankGraphDigest>("pagerank.digest", [&w] { return pagerank_graph_digest(w.matrix); });
}

KernelSource PagerankFamily::source(const Problem& p, const Config& config) const {
  const PagerankConfig c = PagerankConfig::from(config);
  KernelSource s;
  s.code = std::string(templates::k_pagerank_common_cuh);
  switch (c.direction) {
    case PagerankDirection::Pull:
      s.code += templates::k_pagerank_pull_cu;
      s.entries = {"pagerank_contrib", "pagerank_pull"};
      break;
    case PagerankDirection::Push:
      s.code += templates::k_pagerank_push_cu;
      s.entries = {"pagerank_scatter", "pagerank_finish"};
      break;
    case PagerankDirection::PullEdges:
      s.code += templates::k_pagerank_pull_edges_cu;
      s.entries = {"pagerank_contrib", "pagerank_pull_edges", "pagerank_finish"};
      break;
  }
  s.entries.push_back("pagerank_init");
  s.entries.push_back("pagerank_check");
  s.options = {std::string("-DKT_VALUE=") + (p.precision.output == Dtype::F64 ? "double" : "float"),
               "-DKT_BLOCK=" + std::to_string(c.block), "-DKT_LANES=" + std::to_string(c.lanes),
               "-DKT_ITEMS=" + std::to_string(c.items)};
  return s;
}

std::vector<LaunchStep> PagerankFamily::launches(const Workload& w, const Problem& p, const Config& config) const {
  return pagerank_launches(PagerankConfig::from(config), PagerankProblem::of(p), vertex_count(w.matrix),
                           w.matrix.nnz(), p.precision.output);
}

std::vector<PlanOp> PagerankFamily::program(const Workload&, const Problem& p, const Config& config) const {
  return pagerank_program(PagerankConfig::from(config), PagerankProblem::of(p));
}

LaunchPlan PagerankFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const PagerankConfig c = PagerankConfig::from(config);
  const int32_t n = vertex_count(w.matrix);
  const Dtype dtype = p.precision.output;
  const auto vertices = static_cast<size_t>(std::max(n, 1));
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  if (c.pulls()) {
    // The in-edges and the out-degrees; the transpose is a pull's preprocessing.
    const std::shared_ptr<const GraphEdges> in_edges = graph_in_edges(w);
    plan.buffers = in_edges->buffers("in_ptr", "in_idx");
    plan.prepare_seconds = in_edges->build_seconds;
    if (c.direction == PagerankDirection::PullEdges) {
      const std::shared_ptr<const DerivedInputs> heads = derived_inputs(
          w, "pagerank.in_row", [&] { return std::vector<DeviceBuffer>{in_edge_heads(*in_edges)}; });
      plan.buffers[0] = heads->buffers.front();  // each edge's head instead of the row pointers
      plan.prepare_seconds += heads->build_seconds;
    }
    plan.buffers.push_back(*w.derived.get<DeviceBuffer>("pagerank.out_degree", [&] {
      std::vector<int32_t> degrees = digest(w)->out_degrees;
      if (degrees.empty()) degrees.push_back(0);  // no device buffer is empty
      return index_buffer("out_degree", degrees);
    }));
    plan.buffers.push_back(output_buffer("contrib", vertices, dtype));
  } else {
    plan.buffers = graph_out_edges(w)->buffers("row_ptr", "col_idx");
  }
  if (c.direction != PagerankDirection::Pull) plan.buffers.push_back(output_buffer("next", vertices, dtype));
  plan.buffers.push_back(output_buffer("rank", vertices, dtype));
  plan.buffers.push_back(output_buffer("sums", 2, dtype));
  plan.buffers.push_back(output_buffer("active", 1, Dtype::I32));
  plan.outputs = {{"rank", static_cast<size_t>(n), dtype}};
  plan.steps = pagerank_launches(c, PagerankProblem::of(p), n, w.matrix.nnz(), dtype);
  plan.program = pagerank_program(c, PagerankProblem::of(p));
  plan.twins = pagerank_twins(c, dtype);
  return plan;
}

std::shared_ptr<const PagerankRun> PagerankFamily::run(const Workload& w, const Problem& p) const {
  return w.derived.get<PagerankRun>("pagerank.run " + p.key(),
                                    [&] { return pagerank_reference(w.matrix, PagerankProblem::of(p)); });
}

Reference PagerankFamily::reference(const Workload& w, const Problem& p) const {
  return {{"rank", run(w, p)->ranks}};
}

Verdict PagerankFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                               const std::vector<double>& expected, const CheckData&) const {
  return check_ranks(got, output.dtype, expected, PagerankProblem::of(p));
}

WorkEstimate PagerankFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  const PagerankProblem problem = PagerankProblem::of(p);
  // How fast the ranks settle depends on the graph (a random graph's in a dozen iterations, a
  // road network's in a hundred): the host's run says, where it costs at most a few seconds
  // (and a measured tune's check needs it anyway); past that, the damping's worst case.
  const bool walk = w.matrix.nnz() * int64_t{problem.max_iterations} <= kPagerankWalkBudget;
  const int64_t iterations = walk ? run(w, p)->iterations : pagerank_expected_iterations(problem);
  WorkEstimate e = estimate_pagerank(*digest(w), PagerankConfig::from(config), p.precision.output, iterations);
  e.launches = plan_nodes(program(w, p, config)).launches(e.loop_iterations);
  return e;
}

double PagerankFamily::flops(const Workload& w, const Problem&) const {
  const std::shared_ptr<const PagerankGraphDigest> g = digest(w);
  return static_cast<double>(g->edges) + 5.0 * static_cast<double>(std::max<size_t>(g->out_degrees.size(), 1));
}

double PagerankFamily::min_bytes(const Workload& w, const Problem& p) const {
  return pagerank_min_bytes(*digest(w), p.precision.output);
}

std::vector<std::string_view> PagerankFamily::templates() const {
  return {templates::k_pagerank_common_cuh, templates::k_pagerank_pull_cu, templates::k_pagerank_push_cu,
          templates::k_pagerank_pull_edges_cu};
}

std::unique_ptr<KernelFamily> make_pagerank_family() { return std::make_unique<PagerankFamily>(); }

}  // namespace ktune
