#pragma once
// Building the DeviceBuffers of a LaunchPlan from host arrays.
#include <string>
#include <vector>

#include "kernels/kernel_family.h"

namespace ktune {

DeviceBuffer index_buffer(std::string name, const std::vector<int32_t>& indices);
// Values held in double on the host, uploaded in the kernel's precision.
DeviceBuffer value_buffer(std::string name, const std::vector<double>& values, Dtype dtype);
// Written by the kernels; nothing is uploaded.
DeviceBuffer output_buffer(std::string name, size_t elements, Dtype dtype);

}  // namespace ktune
