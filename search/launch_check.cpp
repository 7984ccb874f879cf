#include "search/launch_check.h"

#include "workload/input_error.h"

namespace ktune {

std::string launch_violation(const KernelFamily& family, const Workload& workload, const Problem& problem, const Config& config,
                             const CompiledKernel& kernel, const GpuSpec& gpu) {
  DeviceLimits limits;
  limits.max_registers_per_thread = gpu.max_registers_per_thread;
  limits.registers_per_block = gpu.registers_per_sm;
  limits.shared_bytes_per_block = gpu.max_shared_per_block;
  limits.max_threads_per_block = gpu.max_threads_per_block;
  const ParameterSpace space = family.space(problem);
  std::vector<LaunchStep> steps;
  try {
    steps = family.launches(workload, problem, config);
  } catch (const InputError& e) {  // a configuration this workload cannot take (a refused format)
    return e.what();
  }
  for (const LaunchStep& step : steps) {
    auto usage = kernel.usage.find(step.entry);
    if (usage == kernel.usage.end()) continue;  // an unknown entry fails at launch, with its name
    KernelResources r;
    r.registers_per_thread = usage->second.registers;
    r.shared_bytes = int64_t{usage->second.shared_bytes} + step.shared_bytes;
    r.threads_per_block = static_cast<int>(step.block.x * step.block.y * step.block.z);
    r.spill_bytes = int64_t{usage->second.spill_stores} + usage->second.spill_loads;
    if (std::string why = space.hardware_violation(config, r, limits); !why.empty()) return step.entry + ": " + why;
  }
  return "";
}

}  // namespace ktune
