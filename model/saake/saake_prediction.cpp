#include "model/saake/saake_prediction.h"

namespace ktune {
namespace {

constexpr double kSectorBytes = 32;

nlohmann::json per_resource(const std::array<double, kResourceCount>& values) {
  nlohmann::json out = nlohmann::json::object();
  for (size_t r = 0; r < kResourceCount; ++r)
    if (values[r] != 0) out[resource_name(static_cast<Resource>(r))] = values[r];
  return out;
}

}  // namespace

std::string bottleneck_label(const CandidatePrediction& p) {
  return std::string(resource_name(p.bottleneck)) + ":" + bound_kind_name(p.bottleneck_kind);
}

Prediction to_prediction(const CandidatePrediction& p, const GpuSpec& gpu) {
  Prediction out;
  out.time_us = p.microseconds;
  out.launch_us = p.launch_microseconds;
  out.compute_us = p.microseconds - p.launch_microseconds;
  const double dram_bytes = p.transactions[static_cast<size_t>(Resource::Dram)] * kSectorBytes;
  out.memory_us = gpu.dram_bandwidth_gbs > 0 ? dram_bytes / (gpu.dram_bandwidth_gbs * 1e3) : 0;
  out.imbalance = p.imbalance;
  out.occupancy = p.occupancy;
  out.bottleneck = bottleneck_label(p);
  return out;
}

nlohmann::json to_json(const CandidatePrediction& p) {
  nlohmann::json steps = nlohmann::json::array();
  for (const StepEmulation& s : p.steps) {
    const CacheSummary& c = s.prediction.cache;
    nlohmann::json step = {{"entry", s.entry},
                           {"blocks", s.blocks},
                           {"threads_per_block", s.threads_per_block},
                           {"registers", s.usage.registers},
                           {"time_us", s.prediction.microseconds},
                           {"resident_blocks", s.prediction.resident_blocks},
                           {"active_sms", s.prediction.active_sms},
                           {"sampled_blocks", s.prediction.samples.size()},
                           {"imbalance", s.imbalance},
                           {"cache", {{"l1_hit_rate", c.l1_hit_rate}, {"l2_hit_rate", c.l2_hit_rate},
                                      {"grid_footprint_bytes", c.grid_footprint_bytes}}}};
    if (s.sensitivity) step["sensitivity"] = to_json(*s.sensitivity);
    steps.push_back(std::move(step));
  }
  return {{"time_us", p.microseconds},
          {"cycles", p.cycles},
          {"launch_us", p.launch_microseconds},
          {"occupancy", p.occupancy},
          {"imbalance", p.imbalance},
          {"bottleneck", bottleneck_label(p)},
          {"bottleneck_source", p.bottleneck_from_sensitivity ? "sensitivity" : "utilisation"},
          {"utilisation", per_resource(p.utilisation)},
          {"transactions", per_resource(p.transactions)},
          {"steps", std::move(steps)},
          {"host_seconds",
           {{"interpret", p.interpret_seconds}, {"emulate", p.emulate_seconds}, {"sensitivity", p.sensitivity_seconds}}}};
}

nlohmann::json sensitivity_json(const CandidatePrediction& p) {
  if (p.steps.empty()) return nullptr;
  const StepEmulation& longest = p.steps[p.longest_step()];
  if (!longest.sensitivity) return nullptr;
  nlohmann::json out = to_json(*longest.sensitivity);
  out["bottleneck_label"] = bottleneck_label(p);
  out["entry"] = longest.entry;
  return out;
}

}  // namespace ktune
