#pragma once
// The GEMM family: C = A·B on generated operands (gemm_shape.h for the layouts,
// gemm_operands.h for the values), f32 on SIMT FMAs, f64 and tf32 (f32 inputs read as tf32)
// on SIMT FMAs or m16n8k8 tensor cores, bf16 and f16 inputs with f32 accumulation and output
// on tensor cores, decomposed data-parallel, split-K, Stream-K or the
// hybrid (gemm_schedule.h); checked on a sample of C (gemm_reference.h).
#include "kernels/kernel_family.h"

namespace ktune {

class GemmFamily : public KernelFamily {
 public:
  std::string name() const override { return "gemm"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::Dense; }
  ProblemSchema problem_schema() const override;
  std::vector<Precision> precisions() const override;
  // Refuses (LimitError) operands that no device holds.
  void check_problem(const Workload& w, const Problem& p) const override;
  ParameterSpace space(const Problem& p) const override;
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare_next(const Workload& w, const Problem& p, const Config& config,
                          const LaunchPlan& previous) const override;
  // The sampled elements only (PlanOutput::sampled); their indices and magnitudes travel in
  // check_data.
  Reference reference(const Workload& w, const Problem& p) const override;
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  std::vector<VendorCall> vendor_calls(const Workload& w, const Problem& p) const override;
  LaunchPlan vendor_plan(const Workload& w, const Problem& p) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  // The SIMT kernel only: the interpreter runs no mma, ldmatrix, cp.async or wgmma.
  bool emulable(const Problem& p, const Config& config) const override;
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;
  std::vector<std::string_view> templates() const override;

 private:
  LaunchPlan plan_with(const Problem& p, const Config& config, DeviceBuffer a, DeviceBuffer b,
                       std::map<std::string, HostBytes> samples) const;
};

}  // namespace ktune
