#pragma once
// The SDDMM family: (A·Bᵀ) sampled at the pattern of the workload's sparse matrix S, in three
// schedules (sddmm_config.h).
#include "kernels/kernel_family.h"
#include "kernels/sddmm/sddmm_config.h"

namespace ktune {

class SddmmFamily : public KernelFamily {
 public:
  std::string name() const override { return "sddmm"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::SparseMatrix; }
  ProblemSchema problem_schema() const override;
  // Refuses dense operands (and output) beyond what any device holds.
  void check_problem(const Workload& w, const Problem& p) const override;
  ParameterSpace space(const Problem& p) const override;
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare_next(const Workload& w, const Problem& p, const Config& config,
                          const LaunchPlan& previous) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  // Every output is a dot product of K terms (kernels/output_check.h).
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  // cuSPARSE's CSR SDDMM on the row schedule's plan (S's CSR as it is, A, B and C).
  std::vector<VendorCall> vendor_calls(const Workload& w, const Problem& p) const override;
  LaunchPlan vendor_plan(const Workload& w, const Problem& p) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  std::optional<std::vector<double>> block_weights(const LaunchPlan& plan, const LaunchStep& step) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;  // sddmm_directions.cpp
  std::vector<std::string_view> templates() const override;

 private:
  // The plan of `config`, sharing the configuration-independent inputs of `previous` if given.
  LaunchPlan plan_from(const Workload& w, const Problem& p, const Config& config, const LaunchPlan* previous) const;
};

}  // namespace ktune
