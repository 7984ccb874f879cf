#include "kernels/device_buffers.h"

#include <cstring>

namespace ktune {

namespace {

template <typename T>
DeviceBuffer buffer_of(std::string name, const std::vector<T>& data) {
  DeviceBuffer b;
  b.name = std::move(name);
  b.size = data.size() * sizeof(T);
  std::vector<std::byte> bytes(b.size);
  if (b.size > 0) std::memcpy(bytes.data(), data.data(), b.size);
  b.bytes = HostBytes(std::move(bytes));
  return b;
}

}  // namespace

DeviceBuffer index_buffer(std::string name, const std::vector<int32_t>& indices) {
  return buffer_of(std::move(name), indices);
}

DeviceBuffer value_buffer(std::string name, const std::vector<double>& values, Dtype dtype) {
  if (dtype == Dtype::F64) return buffer_of(std::move(name), values);
  return buffer_of(std::move(name), std::vector<float>(values.begin(), values.end()));
}

DeviceBuffer output_buffer(std::string name, size_t elements, Dtype dtype) {
  DeviceBuffer b;
  b.name = std::move(name);
  b.size = elements * dtype_size(dtype);
  return b;
}

}  // namespace ktune
