#pragma once
// The PageRank family: the rank of every vertex by power iteration with uniform teleport and
// dangling vertices spread uniformly, pulling over in-edges or pushing over out-edges with
// atomics (pagerank_config.h), looping on the device until the L1 change of an iteration is
// below the problem's tolerance or its max_iterations have run.
#include "kernels/kernel_family.h"
#include "kernels/pagerank/pagerank_config.h"
#include "kernels/pagerank/pagerank_estimate.h"
#include "kernels/pagerank/pagerank_reference.h"

namespace ktune {

class PagerankFamily : public KernelFamily {
 public:
  std::string name() const override { return "pagerank"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::Graph; }
  bool reads_values(const Problem&) const override { return false; }  // the edges alone
  ProblemSchema problem_schema() const override;
  ParameterSpace space(const Problem& p) const override { return pagerank_space(); }
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  std::vector<PlanOp> program(const Workload& w, const Problem& p, const Config& config) const override;
  // The graph's buffers are built once per workload (graph_inputs.h) and shared.
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  // Within 1e-4 in L1 of the reference (pagerank_reference.h).
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  // One iteration: an add per edge and a few operations per vertex.
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;  // pagerank_directions.cpp
  std::vector<std::string_view> templates() const override;

 private:
  std::shared_ptr<const PagerankGraphDigest> digest(const Workload& w) const;
  // The reference's run (ranks and iterations), once per workload and problem.
  std::shared_ptr<const PagerankRun> run(const Workload& w, const Problem& p) const;
};

}  // namespace ktune
