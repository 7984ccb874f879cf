#pragma once
// The SpMV family: y = A·x on the workload's CSR matrix or its SELL-32 form, in seven schedules (spmv_config.h).
#include "kernels/kernel_family.h"
#include "kernels/spmv/spmv_config.h"

namespace ktune {

// Why the family takes no launch of `c` on `a` (a SELL-32 form it refuses), or empty.
std::string spmv_refusal(const CsrF64& a, const SpmvConfig& c);

class SpmvFamily : public KernelFamily {
 public:
  std::string name() const override { return "spmv"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::SparseMatrix; }
  ParameterSpace space(const Problem& p) const override;
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare_next(const Workload& w, const Problem& p, const Config& config,
                          const LaunchPlan& previous) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  // The output's tolerance grows with each row's length (kernels/output_check.h).
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  // cuSPARSE's CSR SpMV, both algorithms, on the CSR plan of a row schedule.
  std::vector<VendorCall> vendor_calls(const Workload& w, const Problem& p) const override;
  LaunchPlan vendor_plan(const Workload& w, const Problem& p) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  std::optional<std::vector<double>> block_weights(const LaunchPlan& plan, const LaunchStep& step) const override;
  std::optional<std::vector<double>> block_spans(const LaunchPlan& plan, const LaunchStep& step) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;  // spmv_directions.cpp
  std::vector<std::string_view> templates() const override;

 private:
  LaunchPlan plan_with(const Workload& w, const Problem& p, const Config& config, std::vector<DeviceBuffer> inputs,
                       HostBytes row_lengths) const;
};

}  // namespace ktune
