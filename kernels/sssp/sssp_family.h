#pragma once
// The SSSP family: single-source shortest paths from each source of the problem on the
// workload's graph (its CSR adjacency) with generated or file weights (sssp_problem.h); frontier
// Bellman-Ford or delta-stepping, and the relaxation's load balancing, tuned per graph
// (sssp_config.h).
#include "kernels/kernel_family.h"

namespace ktune {

class SsspFamily : public KernelFamily {
 public:
  std::string name() const override { return "sssp"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::Graph; }
  bool reads_values(const Problem& p) const override;  // the file's weights, when the problem says so
  ProblemSchema problem_schema() const override;
  // i32 (integer weights, exact) first, then f32 (any non-negative weights, bounded).
  std::vector<Precision> precisions() const override;
  void check_problem(const Workload& w, const Problem& p) const override;
  ParameterSpace space(const Problem& p) const override;
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  std::vector<PlanOp> program(const Workload& w, const Problem& p, const Config& config) const override;
  // The graph and its weights are built once per workload and problem, and shared.
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  // i32 exactly; f32 within sssp_verify.h's bound.
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  // One addition per edge relaxed, per source.
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;
  std::vector<std::string_view> templates() const override;
};

}  // namespace ktune
