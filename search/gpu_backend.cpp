#include "search/gpu_backend.h"

#include "search/candidate_order.h"
#include "search/launch_check.h"
#include "workload/input_error.h"

namespace ktune {

GpuLoopBackend::GpuLoopBackend(const KernelFamily& family, const Workload& workload, const Problem& problem, bool hot,
                               const GpuSpec& gpu, CompileCache& cache, Measurer& measurer, RequestFor request_for)
    : family_(family), workload_(workload), problem_(problem), gpu_(gpu), cache_(cache), measurer_(measurer),
      request_for_(std::move(request_for)), reference_(family.reference(workload, problem)) {
  options_.hot = hot;
}

std::shared_ptr<const CompiledKernel> GpuLoopBackend::compile(const Config& config) {
  return cache_.get(request_for_(config));
}

std::optional<Prediction> GpuLoopBackend::predict(const Config& config, const CompiledKernel& kernel) {
  try {
    return ktune::predict(family_.estimate(workload_, problem_, config), combined_usage(kernel), gpu_);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string GpuLoopBackend::launch_violation(const Config& config, const CompiledKernel& kernel) {
  return ktune::launch_violation(family_, workload_, problem_, config, kernel, gpu_);
}

LaunchPlan GpuLoopBackend::plan_for(const Config& config) {
  // Same workload and problem every time: the previous plan lends its converted inputs.
  return previous_plan_ ? family_.prepare_next(workload_, problem_, config, *previous_plan_)
                        : family_.prepare(workload_, problem_, config);
}

Measurement GpuLoopBackend::measure(const Config& config, const CompiledKernel& kernel) {
  LaunchPlan plan = plan_for(config);
  Measurement m = measurer_.measure(kernel, plan, reference_, options_);
  previous_plan_ = std::move(plan);
  return m;
}

std::vector<VendorTiming> GpuLoopBackend::vendor() {
  std::vector<VendorTiming> out;
  const std::vector<VendorCall> calls = family_.vendor_calls(workload_, problem_);
  if (calls.empty()) return out;
  const LaunchPlan plan = family_.vendor_plan(workload_, problem_);
  for (const VendorCall& call : calls) out.push_back({call.label, measurer_.measure_vendor(plan, call, reference_, options_)});
  return out;
}

}  // namespace ktune
