#pragma once
// A problem the GPU cannot hold is refused (413) before anything is allocated for it: the
// family's compulsory bytes (its operands and outputs, min_bytes) against the device's memory.
#include "gpu/device_info.h"
#include "kernels/kernel_family.h"

namespace ktune {

// The share of the device's memory a problem's operands may take: the rest is for the
// driver, the measurement's L2 flush buffer and the kernels' own scratch.
constexpr double kDeviceMemoryShare = 0.8;

// Throws LimitError naming both sizes when `device` is present and the problem does not fit.
void check_fits_device(const KernelFamily& family, const Workload& w, const Problem& p, const DeviceInfo& device);

}  // namespace ktune
