#pragma once
// The first cost model (model/README.md): a roofline-like bound from bytes and bandwidth,
// corrected for occupancy, and a schedule of per-warp work that exposes imbalance. It is
// to be replaced by the data-aware emulator.
#include <nlohmann/json.hpp>
#include <string>

#include "gpu/compiled_kernel.h"
#include "kernels/kernel_family.h"
#include "model/gpu_spec.h"

namespace ktune {

struct Prediction {
  double time_us = 0;
  double memory_us = 0;   // DRAM traffic at the bandwidth the resident warps can draw
  double compute_us = 0;  // the busiest block slot working through its warps' work
  double launch_us = 0;
  double imbalance = 1;   // busiest slot / mean slot, >= 1
  double occupancy = 0;   // resident warps / maximum, 0..1
  std::string bottleneck; // "memory" | "latency" | "imbalance" | "launch"

  nlohmann::json to_json() const;
};

// Throws InputError when one block of the configuration cannot fit on an SM.
Prediction predict(const WorkEstimate& work, const ResourceUsage& usage, const GpuSpec& gpu);

}  // namespace ktune
