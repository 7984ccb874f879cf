#pragma once
// The hardware constraints a configuration can only be checked against once compiled
// (ParameterSpace::hardware_violation): ptxas registers and shared memory with the launch's
// threads, against the device's limits. The tuning loop asks before every launch.
#include <string>

#include "gpu/compiled_kernel.h"
#include "kernels/kernel_family.h"
#include "model/gpu_spec.h"

namespace ktune {

// Empty when every launch of `config` fits the device; else the entry and the reason.
std::string launch_violation(const KernelFamily& family, const Workload& workload, const Problem& problem, const Config& config,
                             const CompiledKernel& kernel, const GpuSpec& gpu);

}  // namespace ktune
