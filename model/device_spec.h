#pragma once
// The GpuSpec of the device ktuned runs on: the architecture's table (gpu_spec.h) with what
// the driver reports of this very device in place of the table's figures (issue 4 part 1).
#include <string>

#include "gpu/device_info.h"
#include "model/gpu_spec.h"

namespace ktune {

// `arch_override` (a flag) wins over the device's own architecture; without a device the
// table of the architecture is returned as it is (sm_90 unless overridden).
GpuSpec spec_for_device(const DeviceInfo& device, const std::string& arch_override = "");

}  // namespace ktune
