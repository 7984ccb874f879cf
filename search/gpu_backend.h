#pragma once
// The tuning loop's backend on a real GPU: NVRTC through the compile cache, the family's
// launch plans, the Measurer's worker process, and cuSPARSE as the SpMV vendor baseline.
#include <functional>
#include <mutex>
#include <optional>

#include "gpu/compile_cache.h"
#include "gpu/measurer.h"
#include "model/gpu_spec.h"
#include "search/tuning_loop.h"

namespace ktune {

class GpuLoopBackend : public LoopBackend {
 public:
  using RequestFor = std::function<CompileRequest(const Config&)>;
  GpuLoopBackend(const KernelFamily& family, const Workload& workload, const Problem& problem, bool hot, const GpuSpec& gpu,
                 CompileCache& cache, Measurer& measurer, RequestFor request_for);

  std::shared_ptr<const CompiledKernel> compile(const Config& config) override;
  std::optional<Prediction> predict(const Config& config, const CompiledKernel& kernel) override;
  std::string launch_violation(const Config& config, const CompiledKernel& kernel) override;
  // Prepares the plan (kept for the measurement that follows) and identifies it.
  std::string plan_identity(const Config& config, const CompiledKernel& kernel) override;
  Measurement measure(const Config& config, const CompiledKernel& kernel) override;
  std::vector<VendorTiming> vendor() override;

  // Where the search's time went, in seconds summed over calls: the reference (once), waits
  // for compiles, plans prepared on the host, and the worker (transfers, runs, verification).
  struct Spent {
    double reference = 0, compile = 0, prepare = 0, worker = 0;
  };
  Spent spent() const;

 private:
  LaunchPlan plan_for(const Config& config);
  void add(double Spent::*part, double seconds);

  const KernelFamily& family_;
  const Workload& workload_;
  Problem problem_;
  GpuSpec gpu_;
  CompileCache& cache_;
  Measurer& measurer_;
  RequestFor request_for_;
  MeasureOptions options_;
  double reference_seconds_ = 0;  // (before reference_, which records it)
  PreparedReference reference_;   // hashed once for the whole tune
  std::optional<LaunchPlan> previous_plan_;  // lends its inputs to the next configuration's plan
  std::optional<std::pair<Config, LaunchPlan>> identified_;  // plan_identity's, until measured
  mutable std::mutex spent_mutex_;  // compiles run on the pool's threads
  Spent spent_;
};

}  // namespace ktune
