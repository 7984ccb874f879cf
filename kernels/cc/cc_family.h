#pragma once
// The connected-components family: a component label per vertex (weakly connected components
// for a directed graph), by min-label propagation or Shiloach–Vishkin hooking with pointer
// jumping, over a vertex- or edge-parallel edge pass (cc_config.h), looping on the device
// until an iteration changes nothing.
#include "kernels/cc/cc_config.h"
#include "kernels/cc/cc_estimate.h"
#include "kernels/kernel_family.h"

namespace ktune {

class CcFamily : public KernelFamily {
 public:
  std::string name() const override { return "cc"; }
  std::string description() const override;
  WorkloadKind workload_kind() const override { return WorkloadKind::Graph; }
  bool reads_values(const Problem&) const override { return false; }  // the edges alone
  std::vector<Precision> precisions() const override { return {Precision::uniform(Dtype::I32)}; }
  ParameterSpace space(const Problem& p) const override { return cc_space(); }
  KernelSource source(const Problem& p, const Config& config) const override;
  std::vector<LaunchStep> launches(const Workload& w, const Problem& p, const Config& config) const override;
  std::vector<PlanOp> program(const Workload& w, const Problem& p, const Config& config) const override;
  // Each schedule's inputs are built once per workload and shared.
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override;
  Reference reference(const Workload& w, const Problem& p) const override;
  // The same partition as the reference, whatever the label values (cc_reference.h).
  Verdict verify(const Problem& p, const PlanOutput& output, std::string_view got, const std::vector<double>& expected,
                 const CheckData& data) const override;
  WorkEstimate estimate(const Workload& w, const Problem& p, const Config& config) const override;
  // Edges visited by one pass over the undirected form (one comparison each).
  double flops(const Workload& w, const Problem& p) const override;
  double min_bytes(const Workload& w, const Problem& p) const override;
  CanonicalMoves canonical_moves(const Problem& p) const override;  // cc_directions.cpp
  std::vector<std::string_view> templates() const override;

 private:
  std::shared_ptr<const CcGraphDigest> digest(const Workload& w) const;
};

}  // namespace ktune
