#include "kernels/pagerank/pagerank_family.h"

#include <algorithm>
#include <chrono>

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/graph/graph_transpose.h"
#include "kernels/pagerank/pagerank_reference.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

uint32_t grid_of(int64_t items, int64_t per_block) {
  return static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(items, per_block)));
}

KernelArg value_arg(double x, Dtype dtype) {
  return dtype == Dtype::F64 ? KernelArg::of_scalar(x) : KernelArg::of_scalar(static_cast<float>(x));
}

// The device inputs of a direction: the in-edge CSR and the out-degrees (pull), or the
// out-edge CSR with a row for every vertex (push).
std::vector<std::string> input_names(PagerankDirection direction) {
  if (direction == PagerankDirection::Pull) return {"out_degree", "in_ptr", "in_idx"};
  return {"row_ptr", "col_idx"};
}

std::vector<DeviceBuffer> format_inputs(const CsrF64& graph, PagerankDirection direction) {
  const int32_t n = vertex_count(graph);
  // No device buffer is empty: a graph without edges gets one unread index.
  auto indices = [](std::vector<int32_t> v) { return v.empty() ? std::vector<int32_t>{0} : v; };
  if (direction == PagerankDirection::Pull) {
    std::vector<int32_t> degrees(static_cast<size_t>(std::max(n, 1)), 0);
    for (int32_t v = 0; v < n; ++v) degrees[static_cast<size_t>(v)] = out_degree(graph, v);
    const CsrF64 in = transpose_graph(graph);
    return {index_buffer("out_degree", degrees), index_buffer("in_ptr", in.row_ptr),
            index_buffer("in_idx", indices(in.col_idx))};
  }
  std::vector<int32_t> row_ptr = graph.row_ptr;
  row_ptr.resize(static_cast<size_t>(n) + 1, graph.row_ptr.empty() ? 0 : graph.row_ptr.back());
  return {index_buffer("row_ptr", row_ptr), index_buffer("col_idx", indices(graph.col_idx))};
}

// init; the edge pass between its companion launch (pull: contributions before; push: the new
// ranks after); the check of the change.
std::vector<LaunchStep> pagerank_launches(const PagerankConfig& c, const PagerankProblem& problem, int32_t n,
                                          Dtype dtype) {
  const Dim3 block{static_cast<uint32_t>(c.block), 1, 1};
  const Dim3 per_vertex{grid_of(n, c.block), 1, 1};
  const Dim3 edge_pass{grid_of(n, c.vertices_per_block()), 1, 1};
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
  std::vector<LaunchStep> steps = {{"pagerank_init", per_vertex, block, 0, with(count, buffers({"rank"})), {}}};
  if (c.direction == PagerankDirection::Pull) {
    steps.push_back({"pagerank_contrib", per_vertex, block, 0,
                     with(count, buffers({"out_degree", "rank", "contrib", "sums"})), {}});
    steps.push_back({"pagerank_pull", edge_pass, block, 0,
                     with(count, buffers({"in_ptr", "in_idx", "contrib", "rank", "sums"}), update), {}});
  } else {
    steps.push_back({"pagerank_scatter", edge_pass, block, 0,
                     with(count, buffers({"row_ptr", "col_idx", "rank", "next", "sums"})), {}});
    steps.push_back({"pagerank_finish", per_vertex, block, 0, with(count, buffers({"next", "rank", "sums"}), update), {}});
  }
  steps.push_back({"pagerank_check", {1, 1, 1}, {1, 1, 1}, 0,
                   with(value_arg(problem.tolerance, dtype), buffers({"sums", "active"})), {}});
  return steps;
}

// The sums start cleared (pagerank_check clears them after each iteration), push's `next`
// too (pagerank_finish clears it); then iterations until the check finds the change below
// the tolerance, at most max_iterations.
std::vector<PlanOp> pagerank_program(const PagerankConfig& c, const PagerankProblem& problem) {
  std::vector<PlanOp> program = {PlanOp::run(0), PlanOp::fill("sums", 0)};
  if (c.direction == PagerankDirection::Push) program.push_back(PlanOp::fill("next", 0));
  program.push_back(PlanOp::loop({PlanOp::run(1), PlanOp::run(2), PlanOp::run(3)}, "active", problem.max_iterations));
  return program;
}

}  // namespace

std::string PagerankFamily::description() const {
  return "PageRank by power iteration (damping, L1 tolerance and an iteration bound in the problem; vertices "
         "without out-edges spread their rank uniformly): pull, gathering over in-edges with SpMV's row "
         "schedules (a thread or a sub-warp of lanes per vertex), or push, scattering along out-edges with "
         "atomics; looping on the device until the ranks change by less than the tolerance";
}

ProblemSchema PagerankFamily::problem_schema() const { return pagerank_schema(); }

std::shared_ptr<const PagerankGraphDigest> PagerankFamily::digest(const Workload& w) const {
  return digests_.get(w.matrix, pagerank_graph_digest);
}

KernelSource PagerankFamily::source(const Problem& p, const Config& config) const {
  const PagerankConfig c = PagerankConfig::from(config);
  const bool pull = c.direction == PagerankDirection::Pull;
  KernelSource s;
  s.code = std::string(templates::k_pagerank_common_cuh) +
           std::string(pull ? templates::k_pagerank_pull_cu : templates::k_pagerank_push_cu);
  s.entries = pull ? std::vector<std::string>{"pagerank_pull", "pagerank_contrib"}
                   : std::vector<std::string>{"pagerank_scatter", "pagerank_finish"};
  s.entries.push_back("pagerank_init");
  s.entries.push_back("pagerank_check");
  s.options = {std::string("-DKT_VALUE=") + (p.precision.output == Dtype::F64 ? "double" : "float"),
               "-DKT_BLOCK=" + std::to_string(c.block), "-DKT_LANES=" + std::to_string(c.lanes),
               "-DKT_ITEMS=" + std::to_string(c.items)};
  return s;
}

std::vector<LaunchStep> PagerankFamily::launches(const Workload& w, const Problem& p, const Config& config) const {
  return pagerank_launches(PagerankConfig::from(config), PagerankProblem::of(p), vertex_count(w.matrix),
                           p.precision.output);
}

std::vector<PlanOp> PagerankFamily::program(const Workload&, const Problem& p, const Config& config) const {
  return pagerank_program(PagerankConfig::from(config), PagerankProblem::of(p));
}

LaunchPlan PagerankFamily::plan_with(const Workload& w, const Problem& p, const Config& config,
                                     std::vector<DeviceBuffer> inputs, double convert_seconds) const {
  const PagerankConfig c = PagerankConfig::from(config);
  const int32_t n = vertex_count(w.matrix);
  const Dtype dtype = p.precision.output;
  const auto vertices = static_cast<size_t>(std::max(n, 1));
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  plan.buffers = std::move(inputs);
  plan.buffers.push_back(output_buffer("rank", vertices, dtype));
  plan.buffers.push_back(output_buffer(c.direction == PagerankDirection::Pull ? "contrib" : "next", vertices, dtype));
  plan.buffers.push_back(output_buffer("sums", 2, dtype));
  plan.buffers.push_back(output_buffer("active", 1, Dtype::I32));
  plan.outputs = {{"rank", static_cast<size_t>(n), dtype}};
  plan.steps = pagerank_launches(c, PagerankProblem::of(p), n, dtype);
  plan.program = pagerank_program(c, PagerankProblem::of(p));
  plan.prepare_seconds = convert_seconds;
  return plan;
}

LaunchPlan PagerankFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const auto start = std::chrono::steady_clock::now();
  std::vector<DeviceBuffer> inputs = format_inputs(w.matrix, PagerankConfig::from(config).direction);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return plan_with(w, p, config, std::move(inputs), seconds);
}

LaunchPlan PagerankFamily::prepare_next(const Workload& w, const Problem& p, const Config& config,
                                        const LaunchPlan& previous) const {
  std::vector<DeviceBuffer> inputs;
  for (const std::string& buffer : input_names(PagerankConfig::from(config).direction)) {
    const DeviceBuffer* shared = previous.buffer(buffer);
    if (!shared || shared->bytes.empty()) return prepare(w, p, config);
    inputs.push_back(*shared);  // shares the bytes and their hash
  }
  // The shared form cost the previous plan its conversion.
  return plan_with(w, p, config, std::move(inputs), previous.prepare_seconds);
}

Reference PagerankFamily::reference(const Workload& w, const Problem& p) const {
  return {{"rank", pagerank_reference(w.matrix, PagerankProblem::of(p))}};
}

Verdict PagerankFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                               const std::vector<double>& expected, const CheckData&) const {
  return check_ranks(got, output.dtype, expected, PagerankProblem::of(p));
}

WorkEstimate PagerankFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  return estimate_pagerank(*digest(w), PagerankProblem::of(p), PagerankConfig::from(config), p.precision.output);
}

double PagerankFamily::flops(const Workload& w, const Problem&) const {
  const std::shared_ptr<const PagerankGraphDigest> g = digest(w);
  return static_cast<double>(g->edges) + 5.0 * static_cast<double>(std::max<size_t>(g->out_degrees.size(), 1));
}

double PagerankFamily::min_bytes(const Workload& w, const Problem& p) const {
  return pagerank_min_bytes(*digest(w), p.precision.output);
}

std::vector<std::string_view> PagerankFamily::templates() const {
  return {templates::k_pagerank_common_cuh, templates::k_pagerank_pull_cu, templates::k_pagerank_push_cu};
}

std::unique_ptr<KernelFamily> make_pagerank_family() { return std::make_unique<PagerankFamily>(); }

}  // namespace ktune
