#pragma once
// The SpMV family: y = A·x on the workload's CSR matrix or its SELL-32 form, in six schedules (spmv_config.h).
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
  ParameterSpace space() const override;
  KernelSource source(const Config& config, Dtype dtype) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Config& config) const override;
  LaunchPlan prepare(const Workload& w, const Config& config, Dtype dtype) const override;
  LaunchPlan prepare_next(const Workload& w, const Config& config, Dtype dtype,
                          const LaunchPlan& previous) const override;
  std::vector<double> reference(const Workload& w) const override;
  WorkEstimate estimate(const Workload& w, const Config& config, Dtype dtype) const override;
  double flops(const Workload& w) const override;
  double min_bytes(const Workload& w, Dtype dtype) const override;
  CanonicalMoves canonical_moves() const override;  // spmv_directions.cpp

 private:
  LaunchPlan plan_with(const Workload& w, const Config& config, Dtype dtype, std::vector<DeviceBuffer> inputs) const;
};

}  // namespace ktune
