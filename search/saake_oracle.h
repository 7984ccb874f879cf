#pragma once
// What the model-driven walk (saake_walk.h) asks of a performance model, kept small so that
// both the first cost model (first_model_oracle.h) and the emulator with sensitivity analysis
// (digest-000 §2.2–2.7) can answer it. Resources are named as model/resource.h names them
// ("dram", "l2", "fp32", ...) plus whatever a coarser model needs ("launch").
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/parameter_space.h"

namespace ktune {

enum class WalkBottleneckKind { Latency, Throughput };

// Named apart from model/emulator/sensitivity.h's Bottleneck (an enum Resource and an
// elasticity) so that an oracle over the emulator can include both.
struct WalkBottleneck {
  std::string resource;  // e.g. "dram"
  WalkBottleneckKind kind = WalkBottleneckKind::Throughput;
  bool operator==(const WalkBottleneck& o) const { return resource == o.resource && kind == o.kind; }
  bool operator!=(const WalkBottleneck& o) const { return !(*this == o); }
};

// The model's view of one configuration.
struct OracleView {
  double time_us = 0;
  double occupancy = 0;  // resident warps / maximum, 0..1
  WalkBottleneck bottleneck;
  std::map<std::string, double> utilisation;   // per resource, 0..1 of the kernel's time
  std::map<std::string, double> transactions;  // per resource, whole kernel
};

class SaakeOracle {
 public:
  virtual ~SaakeOracle() = default;
  // Nothing when the configuration cannot run (it does not fit on an SM, or fails to build).
  virtual std::optional<OracleView> evaluate(const Config& config) = 0;
  // The bottleneck `config` would have if it ran at `occupancy` instead of its own
  // (sensitivity analysis at a hypothetical occupancy, digest-000 §2.7).
  virtual std::optional<WalkBottleneck> bottleneck_at(const Config& config, double occupancy) = 0;
  // Occupancy steps this configuration may give up to: k·(warps per block)/(max warps) for
  // k below its resident blocks, largest first (the `olist` of Algorithm 3).
  virtual std::vector<double> lower_occupancies(const Config& config) = 0;
};

}  // namespace ktune
