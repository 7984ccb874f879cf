#include "search/gpu_backend.h"

#include "search/candidate_order.h"
#include "search/launch_check.h"
#include "workload/input_error.h"

namespace ktune {

GpuLoopBackend::GpuLoopBackend(const KernelFamily& family, const Workload& workload, Dtype dtype, bool hot,
                               const GpuSpec& gpu, CompileCache& cache, Measurer& measurer, RequestFor request_for)
    : family_(family), workload_(workload), dtype_(dtype), gpu_(gpu), cache_(cache), measurer_(measurer),
      request_for_(std::move(request_for)), reference_(family.reference(workload)) {
  options_.hot = hot;
  row_lengths_.resize(static_cast<size_t>(workload.matrix.rows));
  for (int32_t i = 0; i < workload.matrix.rows; ++i) row_lengths_[static_cast<size_t>(i)] = workload.matrix.row_length(i);
}

std::shared_ptr<const CompiledKernel> GpuLoopBackend::compile(const Config& config) {
  return cache_.get(request_for_(config));
}

std::optional<Prediction> GpuLoopBackend::predict(const Config& config, const CompiledKernel& kernel) {
  try {
    return ktune::predict(family_.estimate(workload_, config, dtype_), combined_usage(kernel), gpu_);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string GpuLoopBackend::launch_violation(const Config& config, const CompiledKernel& kernel) {
  return ktune::launch_violation(family_, workload_, config, kernel, gpu_);
}

LaunchPlan GpuLoopBackend::plan_for(const Config& config) {
  // Same workload and dtype every time: the previous plan lends its converted inputs.
  LaunchPlan plan = previous_plan_ ? family_.prepare_next(workload_, config, dtype_, *previous_plan_)
                                   : family_.prepare(workload_, config, dtype_);
  return plan;
}

Measurement GpuLoopBackend::measure(const Config& config, const CompiledKernel& kernel) {
  LaunchPlan plan = plan_for(config);
  Measurement m = measurer_.measure(kernel, plan, reference_, row_lengths_, dtype_, options_);
  previous_plan_ = std::move(plan);
  return m;
}

std::vector<VendorTiming> GpuLoopBackend::vendor() {
  std::vector<VendorTiming> out;
  if (family_.name() != "spmv") return out;
  // cuSPARSE reads CSR as it is and x: the plan of the space's first configuration (a row
  // schedule) holds them; a sell plan holds the SELL-32 form instead.
  LaunchPlan plan = plan_for(family_.space().enumerate().front());
  const CsrF64& m = workload_.matrix;
  for (const char* alg : {"csr_alg1", "csr_alg2"}) {
    Measurement t = measurer_.measure_cusparse_spmv(plan, m.rows, m.cols, m.nnz(), reference_, dtype_, alg, options_);
    out.push_back({std::string("cusparse-") + alg, t});
  }
  previous_plan_ = std::move(plan);
  return out;
}

}  // namespace ktune
