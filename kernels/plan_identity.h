#pragma once
// What identifies the work a plan runs: two configurations whose compiled kernel and plan are
// the same (launches, arguments, buffers and their contents, program) run the same work on
// the device, and a search measures them once. Families avoid such pairs where the space alone
// decides, but some only the data decides: heavy_light SpMM with a threshold longer than every
// row splits no row, whichever threshold it names.
#include <string>

#include "kernels/launch_plan.h"

namespace ktune {

// SHA-256 hex over the kernel's cache key (CompiledKernel::key: code, options, architecture)
// and everything of `plan` the device runs: buffers (name, size, content id), outputs, steps
// and program. Host-only parts (check data, twins, preparation time) do not count.
std::string plan_identity(const LaunchPlan& plan, const std::string& kernel_key);

}  // namespace ktune
