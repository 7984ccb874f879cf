#pragma once
// The SpMM family: C = A·B with A the workload's CSR matrix, B dense (cols x K) and C dense
// (rows x K), row-major, in four schedules (spmm_config.h).
#include "kernels/kernel_family.h"
#include "kernels/spmm/spmm_config.h"

namespace ktune {

class SpmmFamily : public KernelFamily {
 public:
  std::string name() const override { return "spmm"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::SparseMatrix; }
  ProblemSchema problem_schema() const override;
  // Refuses (LimitError) a problem whose A, B and C would not fit a device's memory.
  void check_problem(const Workload& w, const Problem& p) const override;
  ParameterSpace space(const Problem& p) const override;
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare_next(const Workload& w, const Problem& p, const Config& config,
                          const LaunchPlan& previous) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  // C's tolerance grows with each row's length (kernels/output_check.h).
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  // cuSPARSE's SpMM, every CSR algorithm, on row-major B and C.
  std::vector<VendorCall> vendor_calls(const Workload& w, const Problem& p) const override;
  LaunchPlan vendor_plan(const Workload& w, const Problem& p) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  std::optional<std::vector<double>> block_weights(const LaunchPlan& plan, const LaunchStep& step) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;  // spmm_directions.cpp
  std::vector<std::string_view> templates() const override;

 private:
  LaunchPlan plan_with(const Workload& w, const Problem& p, const Config& config, std::vector<DeviceBuffer> inputs,
                       std::map<std::string, HostBytes> check) const;
};

}  // namespace ktune
