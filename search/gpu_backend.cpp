#include "search/gpu_backend.h"

#include <chrono>

#include "kernels/plan_identity.h"
#include "search/candidate_order.h"
#include "search/launch_check.h"
#include "workload/input_error.h"

namespace ktune {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

GpuLoopBackend::GpuLoopBackend(const KernelFamily& family, const Workload& workload, const Problem& problem, bool hot,
                               const GpuSpec& gpu, CompileCache& cache, Measurer& measurer, RequestFor request_for)
    : family_(family), workload_(workload), problem_(problem), gpu_(gpu), cache_(cache), measurer_(measurer),
      request_for_(std::move(request_for)),
      reference_([&] {
        const Clock::time_point start = Clock::now();
        PreparedReference r(family.reference(workload, problem));
        reference_seconds_ = seconds_since(start);
        return r;
      }()) {
  options_.hot = hot;
}

void GpuLoopBackend::add(double Spent::*part, double seconds) {
  std::lock_guard<std::mutex> lock(spent_mutex_);
  spent_.*part += seconds;
}

GpuLoopBackend::Spent GpuLoopBackend::spent() const {
  std::lock_guard<std::mutex> lock(spent_mutex_);
  Spent s = spent_;
  s.reference = reference_seconds_;
  return s;
}

std::shared_ptr<const CompiledKernel> GpuLoopBackend::compile(const Config& config) {
  const Clock::time_point start = Clock::now();
  std::shared_ptr<const CompiledKernel> k = cache_.get(request_for_(config));
  add(&Spent::compile, seconds_since(start));
  return k;
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

std::string GpuLoopBackend::plan_identity(const Config& config, const CompiledKernel& kernel) {
  const Clock::time_point start = Clock::now();
  LaunchPlan plan = plan_for(config);
  std::string identity = ktune::plan_identity(plan, kernel.key);
  identified_.emplace(config, std::move(plan));
  add(&Spent::prepare, seconds_since(start));
  return identity;
}

Measurement GpuLoopBackend::measure(const Config& config, const CompiledKernel& kernel) {
  Clock::time_point start = Clock::now();
  std::optional<LaunchPlan> identified;
  if (identified_ && identified_->first == config) identified = std::move(identified_->second);
  identified_.reset();
  LaunchPlan plan = identified ? std::move(*identified) : plan_for(config);
  add(&Spent::prepare, seconds_since(start));
  start = Clock::now();
  Measurement m = measurer_.measure(kernel, plan, reference_, options_);
  add(&Spent::worker, seconds_since(start));
  previous_plan_ = std::move(plan);
  return m;
}

std::vector<VendorTiming> GpuLoopBackend::vendor() {
  std::vector<VendorTiming> out;
  const std::vector<VendorCall> calls = family_.vendor_calls(workload_, problem_);
  if (calls.empty()) return out;
  const LaunchPlan plan = family_.vendor_plan(workload_, problem_);
  const Clock::time_point start = Clock::now();
  for (const VendorCall& call : calls) out.push_back({call.label, measurer_.measure_vendor(plan, call, reference_, options_)});
  add(&Spent::worker, seconds_since(start));
  return out;
}

}  // namespace ktune
