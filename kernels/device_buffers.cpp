#include "kernels/device_buffers.h"

#include <cstring>

namespace ktune {

DeviceBuffer index_buffer(std::string name, const std::vector<int32_t>& indices) {
  return input_buffer(std::move(name), indices);
}

DeviceBuffer value_buffer(std::string name, const std::vector<double>& values, Dtype dtype) {
  if (dtype == Dtype::F64) return input_buffer(std::move(name), values);
  return input_buffer(std::move(name), std::vector<float>(values.begin(), values.end()));
}

DeviceBuffer output_buffer(std::string name, size_t elements, Dtype dtype) {
  DeviceBuffer b;
  b.name = std::move(name);
  b.size = elements * dtype_size(dtype);
  return b;
}

}  // namespace ktune
