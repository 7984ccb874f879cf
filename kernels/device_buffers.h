#pragma once
// Building the DeviceBuffers of a LaunchPlan from host arrays.
#include <cstring>
#include <string>
#include <vector>

#include "kernels/kernel_family.h"

namespace ktune {

// The bytes of a host array, uploaded as they are.
template <typename T>
DeviceBuffer input_buffer(std::string name, const std::vector<T>& data) {
  DeviceBuffer b;
  b.name = std::move(name);
  b.size = data.size() * sizeof(T);
  std::vector<std::byte> bytes(b.size);
  if (b.size > 0) std::memcpy(bytes.data(), data.data(), b.size);
  b.bytes = HostBytes(std::move(bytes));
  return b;
}

DeviceBuffer index_buffer(std::string name, const std::vector<int32_t>& indices);
// Values held in double on the host, uploaded in the kernel's precision.
DeviceBuffer value_buffer(std::string name, const std::vector<double>& values, Dtype dtype);
// Written by the kernels; nothing is uploaded.
DeviceBuffer output_buffer(std::string name, size_t elements, Dtype dtype);

}  // namespace ktune
