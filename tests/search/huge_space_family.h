#pragma once
// A family whose space has about 10^11 configurations (tests/techniques/test_spaces.h's
// huge_space), for the tests that a tune never enumerates a space: one trivial kernel
// y[i] = x[i] scaled, its parameters passed as -D constants the kernel ignores.
#include <string>

#include "kernels/device_buffers.h"
#include "kernels/kernel_family.h"
#include "tests/techniques/test_spaces.h"

namespace ktune::testing {

class HugeSpaceFamily : public KernelFamily {
 public:
  std::string name() const override { return "huge_space"; }
  std::string description() const override { return "y = 2x with 10^11 configurations that change nothing"; }
  WorkloadKind workload_kind() const override { return WorkloadKind::SparseMatrix; }
  ParameterSpace space(const Problem&) const override { return huge_space(); }
  KernelSource source(const Problem& p, const Config& config) const override {
    KernelSource s;
    s.code = kCode;
    s.entries = {"twice"};
    s.options = {std::string("-DKT_VALUE=") + (p.precision.input == Dtype::F32 ? "float" : "double")};
    for (const auto& [name, value] : config) s.options.push_back("-DKT_" + name + "=" + std::to_string(value));
    return s;
  }
  std::vector<LaunchStep> launches(const Workload& w, const Problem&, const Config&) const override {
    LaunchStep s;
    s.entry = "twice";
    s.block.x = 128;
    s.grid.x = static_cast<uint32_t>((w.matrix.rows + 127) / 128);
    s.args = {KernelArg::of_scalar(w.matrix.rows), KernelArg::of_buffer("x"), KernelArg::of_buffer("y")};
    return {s};
  }
  LaunchPlan prepare(const Workload& w, const Problem& p, const Config& config) const override {
    LaunchPlan plan;
    plan.family = name();
    plan.problem = p;
    plan.buffers = {value_buffer("x", std::vector<double>(static_cast<size_t>(w.matrix.rows), 1.5), p.precision.input),
                    output_buffer("y", static_cast<size_t>(w.matrix.rows), p.precision.input)};
    plan.outputs = {{"y", static_cast<size_t>(w.matrix.rows), p.precision.input}};
    plan.steps = launches(w, p, config);
    return plan;
  }
  Reference reference(const Workload& w, const Problem&) const override {
    return {{"y", std::vector<double>(static_cast<size_t>(w.matrix.rows), 3.0)}};
  }
  WorkEstimate estimate(const Workload& w, const Problem&, const Config& config) const override {
    WorkEstimate e;
    e.dram_bytes = 16.0 * w.matrix.rows * (1 + static_cast<double>(config.at("x")) / 1000);
    e.threads_per_block = 128;
    e.blocks = (w.matrix.rows + 127) / 128;
    return e;
  }
  double flops(const Workload& w, const Problem&) const override { return w.matrix.rows; }
  double min_bytes(const Workload& w, const Problem&) const override { return 16.0 * w.matrix.rows; }
  std::vector<std::string_view> templates() const override { return {kCode}; }

 private:
  static constexpr const char* kCode = R"(
extern "C" __global__ void twice(int n, const KT_VALUE* x, KT_VALUE* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
)";
};

}  // namespace ktune::testing
