#include "search/first_model_oracle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "model/first_cost_model.h"
#include "model/occupancy.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr double kSectorBytes = 32;
constexpr size_t kKeptEstimateBytes = size_t{64} << 20;

}  // namespace

WalkBottleneck first_model_bottleneck(const Prediction& p) {
  if (p.bottleneck == "memory") return {"dram", WalkBottleneckKind::Throughput};
  if (p.bottleneck == "launch") return {"launch", WalkBottleneckKind::Throughput};
  return {"dram", WalkBottleneckKind::Latency};
}

FirstModelOracle::FirstModelOracle(const KernelFamily& family, const Workload& workload, const Problem& problem,
                                   const GpuSpec& gpu, const ResourceUsage& usage)
    : family_(family), workload_(workload), problem_(problem), gpu_(gpu), usage_(usage) {}

const WorkEstimate& FirstModelOracle::estimate(const Config& config) {
  auto it = estimates_.find(config);
  if (it != estimates_.end()) return it->second;
  WorkEstimate e = family_.estimate(workload_, problem_, config);
  const size_t bytes = e.warp_work.size() * sizeof(double);
  if (kept_bytes_ + bytes > kKeptEstimateBytes) {
    estimates_.clear();
    kept_bytes_ = 0;
  }
  kept_bytes_ += bytes;
  return estimates_.emplace(config, std::move(e)).first->second;
}

std::optional<OracleView> FirstModelOracle::view_with(const Config& config, const ResourceUsage& usage) {
  const WorkEstimate& work = estimate(config);
  Prediction p;
  try {
    p = predict(work, usage, gpu_);
  } catch (const InputError&) {
    return std::nullopt;  // one block does not fit on an SM
  }
  OracleView v;
  v.time_us = p.time_us;
  v.occupancy = p.occupancy;
  v.bottleneck = first_model_bottleneck(p);
  if (p.time_us > 0) {
    // DRAM utilisation: the time its bytes need at full bandwidth over the kernel's time.
    const double ideal_memory_us = work.dram_bytes / (gpu_.dram_bandwidth_gbs * 1e3);
    v.utilisation["dram"] = std::min(1.0, ideal_memory_us / p.time_us);
    v.utilisation["issue"] = std::min(1.0, p.compute_us / p.time_us);
    v.utilisation["launch"] = std::min(1.0, p.launch_us / p.time_us);
  }
  v.transactions["dram"] = work.dram_bytes / kSectorBytes;
  v.transactions["launch"] = work.launches;
  v.transactions["issue"] = std::accumulate(work.warp_work.begin(), work.warp_work.end(), 0.0) *
                           static_cast<double>(std::max<int64_t>(1, work.warp_work_repeats));
  return v;
}

std::optional<OracleView> FirstModelOracle::evaluate(const Config& config) {
  auto it = views_.find(config);
  if (it == views_.end()) it = views_.emplace(config, view_with(config, usage_)).first;
  return it->second;
}

std::optional<WalkBottleneck> FirstModelOracle::bottleneck_at(const Config& config, double target) {
  // The first model derives occupancy from registers: pick the register count whose
  // occupancy comes nearest the hypothetical one.
  const WorkEstimate& work = estimate(config);
  if (work.threads_per_block <= 0) return std::nullopt;
  ResourceUsage usage = usage_;
  double nearest = std::numeric_limits<double>::infinity();
  for (int regs = gpu_.max_registers_per_thread; regs >= 8; regs -= 8) {
    const Occupancy occ = occupancy(gpu_, work.threads_per_block, regs, usage_.shared_bytes);
    if (occ.blocks_per_sm == 0) continue;
    const double distance = std::abs(occ.fraction - target);
    if (distance < nearest) nearest = distance, usage.registers = regs;
  }
  if (!std::isfinite(nearest)) return std::nullopt;
  std::optional<OracleView> v = view_with(config, usage);
  if (!v) return std::nullopt;
  return v->bottleneck;
}

std::vector<double> FirstModelOracle::lower_occupancies(const Config& config) {
  const WorkEstimate& work = estimate(config);
  if (work.threads_per_block <= 0 || gpu_.max_warps_per_sm <= 0) return {};
  const Occupancy occ = occupancy(gpu_, work.threads_per_block, usage_.registers, usage_.shared_bytes);
  const int warps_per_block = (work.threads_per_block + 31) / 32;
  std::vector<double> levels;
  for (int k = occ.blocks_per_sm - 1; k >= 1; --k)
    levels.push_back(static_cast<double>(k * warps_per_block) / gpu_.max_warps_per_sm);
  return levels;
}

}  // namespace ktune
