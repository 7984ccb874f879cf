#pragma once
// The BFS family: breadth-first search from each source of the problem on the workload's graph
// (its CSR adjacency), depths and optionally parents; frontier representation, direction and
// the edge expansion's load balancing tuned per graph (bfs_config.h).
#include "kernels/kernel_family.h"

namespace ktune {

class BfsFamily : public KernelFamily {
 public:
  std::string name() const override { return "bfs"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::Graph; }
  bool reads_values(const Problem&) const override { return false; }  // the edges alone
  ProblemSchema problem_schema() const override;
  // Depths and parents are vertex ids and levels: i32 only.
  std::vector<Precision> precisions() const override;
  void check_problem(const Workload& w, const Problem& p) const override;
  ParameterSpace space(const Problem& p) const override;
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  std::vector<PlanOp> program(const Workload& w, const Problem& p, const Config& config) const override;
  // The graph's buffers are built once per workload (graph_inputs.h) and shared.
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  // Depths exactly; parents for what they mean (bfs_verify.h).
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  // No arithmetic: one comparison per edge scanned, per source.
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;  // bfs_directions.cpp
  std::vector<std::string_view> templates() const override;
};

}  // namespace ktune
