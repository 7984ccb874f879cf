#pragma once
// SAAKE sensitivity analysis (digest-000 §2.7): re-emulate with one resource's latency or
// gap raised by a step (10%) and take the elasticity (dT/T) / (dP/P) of the whole kernel's
// predicted time. The largest names the bottleneck; latency means the resource waits for
// answers (more warps or ILP help), gap means it is saturated (only fewer transactions
// help). Region drill-down perturbs the bottleneck parameter for one code region's ops only;
// region values are relative to the whole kernel's time, so they add up to about the
// kernel's value.
#include <array>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/emulator/kernel_emulation.h"

namespace ktune {

enum class BoundKind { Latency, Throughput };
const char* bound_kind_name(BoundKind kind);  // "latency", "throughput"

struct ResourceSensitivity {
  Resource resource = Resource::Issue;
  double latency = 0;  // elasticity of kernel time to the latency
  double gap = 0;      // ... to the gap
};

struct Bottleneck {
  Resource resource = Resource::Issue;
  BoundKind kind = BoundKind::Latency;
  double elasticity = 0;
};

struct RegionSensitivity {
  uint32_t region = 0;
  double elasticity = 0;  // of the bottleneck parameter, this region's ops only
};

struct SensitivityReport {
  double step = 0.1;
  double base_cycles = 0;
  double base_microseconds = 0;
  int resident_blocks = 0;
  double launch_share = 0;  // launch overhead / kernel time: no resource can move it
  std::array<ResourceSensitivity, kResourceCount> resources{};
  Bottleneck bottleneck;
  std::vector<RegionSensitivity> regions;  // largest first
  int emulations = 0;                      // SM runs it took
};

struct SensitivityOptions {
  double step = 0.1;
  bool drill_down = true;
};

// Parameters of resources the samples never use have elasticity 0 and are not re-emulated;
// neither is the Issue latency, which the emulator does not use.
SensitivityReport analyse_sensitivity(const PreparedKernel& kernel, const SensitivityOptions& options = {});

// The bottleneck the kernel would have with `resident_blocks` co-resident blocks per SM
// (SAAKE's search asks this of hypothetical occupancies).
SensitivityReport sensitivity_at_occupancy(const KernelEmulationInput& input, int resident_blocks,
                                           const SensitivityOptions& options = {});

nlohmann::json to_json(const SensitivityReport& report);

}  // namespace ktune
