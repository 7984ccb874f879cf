#include "model/emulator/sensitivity.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "workload/input_error.h"
#include "workload/parallel.h"

namespace ktune {
namespace {

std::array<bool, kResourceCount> used_resources(const PreparedKernel& k) {
  std::array<bool, kResourceCount> used{};
  for (const EmuBlock& b : k.programs.blocks)
    for (size_t r = 0; r < kResourceCount; ++r) used[r] = used[r] || b.transactions[r] > 0;
  // An op admitted with no sectors still waits a latency.
  for (const EmuBlock& b : k.programs.blocks)
    for (const EmuWarp& w : b.warps)
      for (const EmuOp& op : w.ops)
        for (uint8_t u = 0; u < op.use_count; ++u) used[static_cast<size_t>(op.uses[u].resource)] = true;
  return used;
}

std::set<uint32_t> regions_using(const PreparedKernel& k, Resource r) {
  std::set<uint32_t> regions;
  for (const EmuBlock& b : k.programs.blocks)
    for (const EmuWarp& w : b.warps)
      for (const EmuOp& op : w.ops) {
        bool uses = r == Resource::Issue || (r == Resource::Barrier && op.barrier);
        for (uint8_t u = 0; u < op.use_count; ++u) uses = uses || op.uses[u].resource == r;
        if (uses) regions.insert(op.region);
      }
  return regions;
}

}  // namespace

const char* bound_kind_name(BoundKind kind) {
  return kind == BoundKind::Latency ? "latency" : "throughput";
}

SensitivityReport analyse_sensitivity(const PreparedKernel& kernel, const SensitivityOptions& options) {
  if (!(options.step > 0)) throw InputError("the sensitivity step must be positive");
  SensitivityReport report;
  report.step = options.step;
  const KernelPrediction base = predict_kernel(kernel);
  report.emulations = 1;
  report.base_cycles = base.cycles;
  report.base_microseconds = base.microseconds;
  report.resident_blocks = base.resident_blocks;
  report.launch_share = base.cycles > 0 ? base.launch_cycles / base.cycles : 0;
  const double factor = 1 + options.step;
  // Each perturbation is an SM run of its own over the same prepared samples: they run side by
  // side (a relaxation of millions of traced instructions takes a second a run, and the
  // analysis tens of runs).
  const auto elasticities = [&](const std::vector<Perturbation>& perturbations) {
    std::vector<double> out(perturbations.size());
    parallel_for(static_cast<int>(perturbations.size()), worker_count(static_cast<int64_t>(perturbations.size()), 1),
                 [&](int i) {
                   const KernelPrediction changed = predict_kernel(kernel, perturbations[static_cast<size_t>(i)]);
                   out[static_cast<size_t>(i)] =
                       base.cycles > 0 ? (changed.cycles - base.cycles) / base.cycles / options.step : 0;
                 });
    report.emulations += static_cast<int>(perturbations.size());
    return out;
  };

  const std::array<bool, kResourceCount> used = used_resources(kernel);
  std::vector<Perturbation> perturbations;
  std::vector<std::pair<size_t, bool>> perturbed;  // (resource, gap) of each
  for (size_t i = 0; i < kResourceCount; ++i) {
    const Resource r = static_cast<Resource>(i);
    report.resources[i].resource = r;
    if (!used[i] && r != Resource::Issue) continue;
    if (r != Resource::Issue) {  // the emulator does not use Issue's latency
      perturbations.push_back({r, false, factor, std::nullopt});
      perturbed.emplace_back(i, false);
    }
    perturbations.push_back({r, true, factor, std::nullopt});
    perturbed.emplace_back(i, true);
  }
  const std::vector<double> found = elasticities(perturbations);
  for (size_t j = 0; j < found.size(); ++j) {
    ResourceSensitivity& s = report.resources[perturbed[j].first];
    (perturbed[j].second ? s.gap : s.latency) = found[j];
  }
  for (const ResourceSensitivity& s : report.resources)
    for (BoundKind kind : {BoundKind::Latency, BoundKind::Throughput}) {
      const double e = kind == BoundKind::Latency ? s.latency : s.gap;
      if (e > report.bottleneck.elasticity) report.bottleneck = {s.resource, kind, e};
    }

  if (options.drill_down && report.bottleneck.elasticity > 0) {
    const Bottleneck& b = report.bottleneck;
    const std::set<uint32_t> used_by = regions_using(kernel, b.resource);
    const std::vector<uint32_t> regions(used_by.begin(), used_by.end());
    std::vector<Perturbation> by_region;
    for (uint32_t region : regions) by_region.push_back({b.resource, b.kind == BoundKind::Throughput, factor, region});
    const std::vector<double> e = elasticities(by_region);
    for (size_t j = 0; j < regions.size(); ++j) report.regions.push_back({regions[j], e[j]});
    std::stable_sort(report.regions.begin(), report.regions.end(),
                     [](const RegionSensitivity& a, const RegionSensitivity& c) { return a.elasticity > c.elasticity; });
  }
  return report;
}

SensitivityReport sensitivity_at_occupancy(const KernelEmulationInput& input, int resident_blocks,
                                           const SensitivityOptions& options) {
  if (resident_blocks < 1) throw InputError("a hypothetical occupancy needs at least one block per SM");
  KernelEmulationOptions emulation;
  emulation.resident_blocks = resident_blocks;
  return analyse_sensitivity(prepare_kernel(input, emulation), options);
}

nlohmann::json to_json(const SensitivityReport& report) {
  nlohmann::json resources = nlohmann::json::object();
  for (const ResourceSensitivity& s : report.resources)
    resources[resource_name(s.resource)] = {{"latency", s.latency}, {"gap", s.gap}};
  nlohmann::json regions = nlohmann::json::array();
  for (const RegionSensitivity& r : report.regions)
    regions.push_back({{"region", r.region}, {"elasticity", r.elasticity}});
  return {
      {"step", report.step},
      {"base_cycles", report.base_cycles},
      {"base_us", report.base_microseconds},
      {"resident_blocks", report.resident_blocks},
      {"launch_share", report.launch_share},
      {"bottleneck",
       {{"resource", resource_name(report.bottleneck.resource)},
        {"kind", bound_kind_name(report.bottleneck.kind)},
        {"elasticity", report.bottleneck.elasticity}}},
      {"sensitivity", resources},
      {"regions", regions},
      {"emulations", report.emulations},
  };
}

}  // namespace ktune
