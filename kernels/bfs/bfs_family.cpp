#include "kernels/bfs/bfs_family.h"

#include "kernel_templates.h"
#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_estimate.h"
#include "kernels/graph/graph_inputs.h"
#include "kernels/bfs/bfs_plan.h"
#include "kernels/bfs/bfs_problem.h"
#include "kernels/bfs/bfs_twins.h"
#include "kernels/bfs/bfs_verify.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

BfsShape shape_of(const CsrF64& graph, const Problem& p) {
  return {vertex_count(graph), graph.nnz(), bfs_sources(graph, p), bfs_outputs_parents(p)};
}

}  // namespace

std::string BfsFamily::description() const {
  return "Breadth-first search from each source in turn (depths, and parents on request) on a graph's CSR "
         "adjacency: the frontier as a queue, a bitmap or a hybrid switching on its size; push, pull (over "
         "in-edges) or direction-optimising (Beamer's alpha and beta); edges expanded by a thread, warp or block "
         "per vertex, warp segmentation, or spread evenly over a block's tile";
}

ProblemSchema BfsFamily::problem_schema() const { return bfs_problem_schema(); }

std::vector<Precision> BfsFamily::precisions() const { return {Precision::uniform(Dtype::I32)}; }

void BfsFamily::check_problem(const Workload& w, const Problem& p) const { check_bfs_problem(w.matrix, p); }

ParameterSpace BfsFamily::space(const Problem&) const { return bfs_space(); }

KernelSource BfsFamily::source(const Problem& p, const Config& config) const {
  const BfsConfig c = BfsConfig::from(config);
  KernelSource s;
  s.code = std::string(templates::k_graph_queue_cuh) + std::string(templates::k_bfs_common_cuh) +
           std::string(templates::k_graph_expand_cuh) +
           std::string(templates::k_bfs_control_cu);
  s.entries = {"bfs_start", "bfs_level_end"};
  if (c.pushes_queue() || c.pushes_bitmap()) {
    s.code += templates::k_bfs_push_cu;
    if (c.pushes_queue()) s.entries.push_back("bfs_push_queue");
    if (c.pushes_bitmap()) s.entries.push_back("bfs_push_bitmap");
  }
  if (c.pulls()) {
    s.code += templates::k_bfs_pull_cu;
    s.entries.push_back("bfs_pull");
  }
  if (c.converts()) {
    s.entries.push_back("bfs_queue_to_bitmap");
    s.entries.push_back("bfs_bitmap_to_queue");
  }
  s.options = {"-DKT_BLOCK=" + std::to_string(c.block),
               "-DKT_COARSEN=" + std::to_string(c.coarsen),
               "-DKT_BALANCE=" + std::to_string(static_cast<int>(c.balance)),
               "-DKT_FRONTIER=" + std::to_string(static_cast<int>(c.frontier)),
               "-DKT_DIRECTION=" + std::to_string(static_cast<int>(c.direction)),
               "-DKT_DENSE_SHIFT=" + std::to_string(c.dense_shift),
               "-DKT_ALPHA=" + std::to_string(c.alpha),
               "-DKT_BETA=" + std::to_string(c.beta),
               std::string("-DKT_PARENTS=") + (bfs_outputs_parents(p) ? "1" : "0")};
  return s;
}

std::vector<LaunchStep> BfsFamily::launches(const Workload& w, const Problem& p, const Config& config) const {
  return bfs_launches(shape_of(w.matrix, p), BfsConfig::from(config));
}

std::vector<PlanOp> BfsFamily::program(const Workload& w, const Problem& p, const Config& config) const {
  return bfs_program(shape_of(w.matrix, p), BfsConfig::from(config));
}

LaunchPlan BfsFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const BfsConfig c = BfsConfig::from(config);
  const BfsShape shape = shape_of(w.matrix, p);
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  const std::shared_ptr<const GraphEdges> out_edges = graph_out_edges(w);
  plan.buffers = out_edges->buffers("row_ptr", "col_idx");
  if (c.pulls()) {
    const std::shared_ptr<const GraphEdges> in_edges = graph_in_edges(w);
    for (DeviceBuffer& b : in_edges->buffers("in_row_ptr", "in_col_idx")) plan.buffers.push_back(std::move(b));
    plan.prepare_seconds = in_edges->build_seconds;  // the transpose a pull reads
  }
  for (DeviceBuffer& b : bfs_work_buffers(shape)) plan.buffers.push_back(std::move(b));
  // One row of n per source, in the problem's order (a client reads source k's depths at k·n).
  // The sources run in turn, as a client running one BFS per source would, so the measured time
  // is their sum; one buffer per output keeps the answer's shape the same for any number of them.
  const size_t elements = static_cast<size_t>(shape.vertices) * shape.sources.size();
  plan.outputs = {{"depths", elements, Dtype::I32}};
  if (shape.parents) plan.outputs.push_back({"parents", elements, Dtype::I32});
  plan.check_data["row_ptr"] = out_edges->row_ptr;
  plan.check_data["col_idx"] = out_edges->col_idx;
  plan.steps = bfs_launches(shape, c);
  plan.program = bfs_program(shape, c);
  plan.twins = bfs_twins(c, shape.parents);
  return plan;
}

Reference BfsFamily::reference(const Workload& w, const Problem& p) const {
  const BfsShape shape = shape_of(w.matrix, p);
  Reference r;
  std::vector<double>& depths = r["depths"];
  std::vector<double>* parents = shape.parents ? &r["parents"] : nullptr;
  for (int32_t source : shape.sources) {
    const BreadthFirst bfs = breadth_first(w.matrix, source);
    depths.insert(depths.end(), bfs.depth.begin(), bfs.depth.end());
    if (parents) parents->insert(parents->end(), bfs.parent.begin(), bfs.parent.end());
  }
  return r;
}

Verdict BfsFamily::verify(const Problem&, const PlanOutput& output, std::string_view got,
                          const std::vector<double>& expected, const CheckData& data) const {
  if (output.buffer == "parents") return check_bfs_parents(got, expected, data);
  return check_exact_output(got, output.dtype, expected);
}

WorkEstimate BfsFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  const BfsShape shape = shape_of(w.matrix, p);
  const BfsConfig c = BfsConfig::from(config);
  // The first source's levels stand for every source's, walked once for every configuration.
  const std::shared_ptr<const std::vector<BfsLevel>> levels =
      shape.sources.empty()
          ? std::make_shared<const std::vector<BfsLevel>>()
          : w.derived.get<std::vector<BfsLevel>>("bfs.levels " + std::to_string(shape.sources.front()), [&] {
              const std::shared_ptr<const GraphEdges> in_edges = graph_in_edges(w);
              return follow_bfs_levels(w.matrix, reinterpret_cast<const int32_t*>(in_edges->row_ptr.data()),
                                       reinterpret_cast<const int32_t*>(in_edges->col_idx.data()),
                                       shape.sources.front());
            });
  WorkEstimate e = estimate_bfs(w, shape, c, *levels);
  e.launches = plan_nodes(bfs_program(shape, c)).launches(e.loop_iterations);
  return e;
}

double BfsFamily::flops(const Workload& w, const Problem& p) const {
  return static_cast<double>(bfs_sources(w.matrix, p).size()) *
         static_cast<double>(std::max<int64_t>(w.matrix.nnz(), 1));
}

double BfsFamily::min_bytes(const Workload& w, const Problem& p) const { return bfs_min_bytes(shape_of(w.matrix, p)); }

std::vector<std::string_view> BfsFamily::templates() const {
  return {templates::k_graph_queue_cuh, templates::k_bfs_common_cuh, templates::k_graph_expand_cuh, templates::k_bfs_control_cu,
          templates::k_bfs_push_cu, templates::k_bfs_pull_cu};
}

std::unique_ptr<KernelFamily> make_bfs_family() { return std::make_unique<BfsFamily>(); }

}  // namespace ktune
