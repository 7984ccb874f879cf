#include "kernels/sssp/sssp_family.h"

#include <cstring>
#include <limits>

#include "kernel_templates.h"
#include "kernels/device_buffers.h"
#include "kernels/graph/graph_inputs.h"
#include "kernels/graph/source_vertices.h"
#include "kernels/sssp/sssp_config.h"
#include "kernels/sssp/sssp_estimate.h"
#include "kernels/sssp/sssp_passes.h"
#include "kernels/sssp/sssp_plan.h"
#include "kernels/sssp/sssp_twins.h"
#include "kernels/sssp/sssp_problem.h"
#include "kernels/sssp/sssp_reference.h"
#include "kernels/sssp/sssp_verify.h"
#include "kernels/sssp/sssp_weights.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

bool float_distances(const Problem& p) { return p.precision.output == Dtype::F32; }

SsspShape shape_of(const CsrF64& graph, const Problem& p, const SsspWeights& weights) {
  return {vertex_count(graph), graph.nnz(), problem_sources(graph, p), float_distances(p), weights.mean, weights.max};
}

double unreached_value(const Problem& p) {
  return float_distances(p) ? std::numeric_limits<double>::infinity() : std::numeric_limits<int32_t>::max();
}

// What sssp_verify.h's bound reads besides the reference: the smallest positive weight and
// the vertex count, as two doubles of check data.
HostBytes float_bound_data(const SsspWeights& weights, const SsspShape& shape) {
  return input_buffer("bound", std::vector<double>{weights.min, static_cast<double>(shape.vertices)}).bytes;
}

// The weights of a problem, derived once per workload and problem: they depend on the problem's
// weight parameters and its precision (f32 rounds them).
std::shared_ptr<const SsspWeights> sssp_weights_of(const Workload& w, const Problem& p) {
  const std::string key = "sssp.weights " + p.key() + " " + to_string(p.precision.output);
  return w.derived.get<SsspWeights>(key, [&] { return sssp_weights(w.matrix, p); });
}

}  // namespace

std::string SsspFamily::description() const {
  return "Single-source shortest paths from each source in turn (distances) on a graph's CSR adjacency with "
         "generated integer or the file's weights: frontier Bellman-Ford (a queue of the vertices whose distance "
         "dropped, relaxed with atomicMin) or delta-stepping with a tuned bucket width (near queue, far set); edges "
         "relaxed by a thread, warp or block per vertex, or spread evenly over a warp's or a block's queued vertices";
}

ProblemSchema SsspFamily::problem_schema() const { return sssp_problem_schema(); }

std::vector<Precision> SsspFamily::precisions() const {
  return {Precision::uniform(Dtype::I32), Precision::uniform(Dtype::F32)};
}

bool SsspFamily::reads_values(const Problem& p) const { return sssp_file_weights(p); }

void SsspFamily::check_problem(const Workload& w, const Problem& p) const { check_sssp_problem(w.matrix, p); }

ParameterSpace SsspFamily::space(const Problem&) const { return sssp_space(); }

KernelSource SsspFamily::source(const Problem& p, const Config& config) const {
  const SsspConfig c = SsspConfig::from(config);
  KernelSource s;
  s.code = std::string(templates::k_graph_queue_cuh) + std::string(templates::k_sssp_common_cuh) +
           std::string(templates::k_graph_expand_cuh) +
           std::string(templates::k_sssp_control_cu) + std::string(templates::k_sssp_relax_cu);
  s.entries = {"sssp_pass_end", "sssp_start", "sssp_relax"};
  if (c.delta_stepping()) s.entries.push_back("sssp_sweep");
  s.options = {"-DKT_BLOCK=" + std::to_string(c.block), "-DKT_COARSEN=" + std::to_string(c.coarsen),
               "-DKT_BALANCE=" + std::to_string(static_cast<int>(c.balance)),
               std::string("-DKT_DELTA_STEPPING=") + (c.delta_stepping() ? "1" : "0"),
               std::string("-DKT_FLOAT_WEIGHTS=") + (float_distances(p) ? "1" : "0"),
               "-DKT_RELAX_BATCH=" + std::to_string(c.batch)};
  return s;
}

std::vector<LaunchStep> SsspFamily::launches(const Workload& w, const Problem& p, const Config& config) const {
  return sssp_launches(shape_of(w.matrix, p, *sssp_weights_of(w, p)), SsspConfig::from(config));
}

std::vector<PlanOp> SsspFamily::program(const Workload& w, const Problem& p, const Config& config) const {
  return sssp_program(shape_of(w.matrix, p, *sssp_weights_of(w, p)), SsspConfig::from(config));
}

LaunchPlan SsspFamily::prepare(const Workload& w, const Problem& p, const Config& config) const {
  const SsspConfig c = SsspConfig::from(config);
  const std::shared_ptr<const SsspWeights> weights = sssp_weights_of(w, p);
  const SsspShape shape = shape_of(w.matrix, p, *weights);
  LaunchPlan plan;
  plan.family = name();
  plan.problem = p;
  plan.buffers = graph_out_edges(w)->buffers("row_ptr", "col_idx");
  plan.buffers.push_back(weights->buffer);
  for (DeviceBuffer& b : sssp_work_buffers(shape)) plan.buffers.push_back(std::move(b));
  // One row of n per source, in the problem's order (a client reads source k's distances at k·n).
  plan.outputs = {{"distances", static_cast<size_t>(shape.vertices) * shape.sources.size(),
                   shape.float_weights ? Dtype::F32 : Dtype::I32}};
  plan.check_data["float_bound"] = float_bound_data(*weights, shape);
  plan.steps = sssp_launches(shape, c);
  plan.program = sssp_program(shape, c);
  plan.alike = sssp_alike_units(shape, c);
  plan.twins = sssp_twins(c, shape.float_weights);
  return plan;
}

Reference SsspFamily::reference(const Workload& w, const Problem& p) const {
  const std::shared_ptr<const SsspWeights> weights = sssp_weights_of(w, p);
  Reference r;
  std::vector<double>& distances = r["distances"];
  for (int32_t source : problem_sources(w.matrix, p)) {
    const std::vector<double> d = dijkstra(w.matrix, *weights, source, unreached_value(p));
    distances.insert(distances.end(), d.begin(), d.end());
  }
  return r;
}

Verdict SsspFamily::verify(const Problem& p, const PlanOutput& output, std::string_view got,
                           const std::vector<double>& expected, const CheckData& data) const {
  if (output.dtype != Dtype::F32) return check_exact_output(got, output.dtype, expected);
  double bound[2] = {0, 0};  // the smallest positive weight, the vertex count
  const auto found = data.find("float_bound");
  if (found != data.end() && found->second.size() == sizeof bound) std::memcpy(bound, found->second.data(), sizeof bound);
  return check_float_distances(got, expected, bound[0], static_cast<size_t>(bound[1]));
}

WorkEstimate SsspFamily::estimate(const Workload& w, const Problem& p, const Config& config) const {
  const std::shared_ptr<const SsspWeights> weights = sssp_weights_of(w, p);
  const SsspShape shape = shape_of(w.matrix, p, *weights);
  const SsspConfig c = SsspConfig::from(config);
  // The passes from the first source stand for every source's; one walk per Δ, shared by the
  // configurations that run it.
  const double delta = c.delta_stepping() ? sssp_delta(shape, c) : 0;
  const std::string key =
      "sssp.passes " + p.key() + " " + to_string(p.precision.output) + " " + std::to_string(delta);
  const std::shared_ptr<const SsspPassWork> passes =
      shape.sources.empty() ? std::make_shared<const SsspPassWork>()
                            : w.derived.get<SsspPassWork>(key, [&] {
                                return follow_sssp_passes(w.matrix, *weights, shape.sources.front(), delta);
                              });
  WorkEstimate e = estimate_sssp(w, shape, c, *passes);
  e.launches = plan_nodes(sssp_program(shape, c)).launches(e.loop_iterations);
  return e;
}

double SsspFamily::flops(const Workload& w, const Problem& p) const {
  return static_cast<double>(problem_sources(w.matrix, p).size()) *
         static_cast<double>(std::max<int64_t>(w.matrix.nnz(), 1));
}

double SsspFamily::min_bytes(const Workload& w, const Problem& p) const {
  SsspShape shape;
  shape.vertices = vertex_count(w.matrix);
  shape.edges = w.matrix.nnz();
  shape.sources = problem_sources(w.matrix, p);
  return sssp_min_bytes(shape);
}

CanonicalMoves SsspFamily::canonical_moves(const Problem&) const {
  const auto start = [](SsspAlgorithm algorithm, SsspBalance balance, int64_t delta) {
    return Config{{"algorithm", static_cast<int64_t>(algorithm)},
                  {"schedule", static_cast<int64_t>(balance)},
                  {"block", 64},
                  {"coarsen", 1},
                  {"delta", delta},
                  {"batch", 1}};
  };
  const auto doubled = [](const Config& from, const char* param) -> std::optional<Config> {
    Config c = from;
    c.at(param) *= 2;
    if (!sssp_space().valid(c)) return std::nullopt;
    return c;
  };
  CanonicalMoves moves;
  moves.starts = {start(SsspAlgorithm::BellmanFord, SsspBalance::Thread, 1),
                  start(SsspAlgorithm::BellmanFord, SsspBalance::Warp, 1),
                  start(SsspAlgorithm::DeltaStepping, SsspBalance::Thread, 8),
                  start(SsspAlgorithm::DeltaStepping, SsspBalance::Warp, 8),
                  start(SsspAlgorithm::DeltaStepping, SsspBalance::Block, 8),
                  start(SsspAlgorithm::DeltaStepping, SsspBalance::Tile, 8)};
  moves.directions = {{"block", "coarsen", [doubled](const Config& c) { return doubled(c, "block"); }},
                      {"vertices", "coarsen", [doubled](const Config& c) { return doubled(c, "coarsen"); }},
                      {"delta", "coarsen", [doubled](const Config& c) { return doubled(c, "delta"); }},
                      {"batch", "unroll", [doubled](const Config& c) { return doubled(c, "batch"); }}};
  return moves;
}

std::vector<std::string_view> SsspFamily::templates() const {
  return {templates::k_graph_queue_cuh, templates::k_sssp_common_cuh, templates::k_graph_expand_cuh, templates::k_sssp_control_cu,
          templates::k_sssp_relax_cu};
}

std::unique_ptr<KernelFamily> make_sssp_family() { return std::make_unique<SsspFamily>(); }

}  // namespace ktune
