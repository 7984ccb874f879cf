#pragma once
// The tensor-contraction family (contraction_spec.h): NWChem's CCSD(T) triples contractions as
// presets, or any two-operand contraction in index notation, at a uniform extent; operands
// generated from their indices; out = in ± A·B written out of place so that every timed run
// computes the same thing. A thread per register tile of outputs, tuned over block size, the
// tile's two coarsenings and unrolling of the summed loop (the chapter's reshaping and
// coarsening), in two schedules: operands read through the caches (contraction_direct.cu) or a
// block's slices of them staged in shared memory (contraction_tiled.h), the block a tile of
// the output.
#include "kernels/kernel_family.h"

namespace ktune {

class ContractionFamily : public KernelFamily {
 public:
  std::string name() const override { return "contraction"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::Dense; }
  ProblemSchema problem_schema() const override;
  std::vector<Precision> precisions() const override;
  // Refuses (InputError) an expression that is not a contraction, (LimitError) one too large.
  void check_problem(const Workload& w, const Problem& p) const override;
  ParameterSpace space(const Problem& p) const override;
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  std::vector<VendorCall> vendor_calls(const Workload& w, const Problem& p) const override;  // contraction_vendor.h
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;  // contraction_directions.cpp
  std::vector<std::string_view> templates() const override;
};

}  // namespace ktune
