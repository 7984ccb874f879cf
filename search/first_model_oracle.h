#pragma once
// The SAAKE oracle over the first cost model (model/first_cost_model.h), until the emulator
// with sensitivity analysis answers instead. The first model names its bottleneck in words;
// they map onto resources as: "memory" → DRAM throughput; "latency" and "imbalance" → DRAM
// latency (too few or too uneven warps to keep DRAM busy); "launch" → launch throughput.
#include <map>

#include "kernels/kernel_family.h"
#include "model/first_cost_model.h"
#include "model/gpu_spec.h"
#include "search/saake_oracle.h"
#include "gpu/compiled_kernel.h"

namespace ktune {

// The first model's bottleneck word as a resource and kind (the mapping above).
WalkBottleneck first_model_bottleneck(const Prediction& p);

class FirstModelOracle : public SaakeOracle {
 public:
  // `usage`: the resources the model assumes before compiling (the tuner's assumed usage).
  FirstModelOracle(const KernelFamily& family, const Workload& workload, const Problem& problem, const GpuSpec& gpu,
                   const ResourceUsage& usage);
  std::optional<OracleView> evaluate(const Config& config) override;
  std::optional<WalkBottleneck> bottleneck_at(const Config& config, double occupancy) override;
  std::vector<double> lower_occupancies(const Config& config) override;

 private:
  const WorkEstimate& estimate(const Config& config);
  std::optional<OracleView> view_with(const Config& config, const ResourceUsage& usage);

  const KernelFamily& family_;
  const Workload& workload_;
  Problem problem_;
  GpuSpec gpu_;
  ResourceUsage usage_;
  // Estimates walk the matrix: each is computed once, while the kept ones' per-warp lists stay
  // within kKeptEstimateBytes (a walk over a 4 M-vertex graph visits dozens of estimates of a
  // warp a vertex, 33 MB each); past it the kept ones go and are made again when asked for.
  std::map<Config, WorkEstimate> estimates_;
  size_t kept_bytes_ = 0;
  std::map<Config, std::optional<OracleView>> views_;
};

}  // namespace ktune
