#include "kernels/spmm/spmm_operands.h"

#include <cstring>

#include "kernels/input_vector.h"

namespace ktune {

namespace {

template <typename T>
std::vector<std::byte> input_bytes(size_t count) {
  std::vector<std::byte> bytes(count * sizeof(T));
  for (size_t i = 0; i < count; ++i) {
    const T v = static_cast<T>(deterministic_input_value(i));
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
  return bytes;
}

}  // namespace

double spmm_device_bytes(const CsrF64& a, int32_t k, Dtype dtype) {
  const double value = static_cast<double>(dtype_size(dtype));
  const double matrix = (a.rows + 1.0) * 4 + static_cast<double>(a.nnz()) * (4 + value);
  return matrix + (static_cast<double>(a.cols) + a.rows) * k * value;
}

DeviceBuffer dense_input_buffer(std::string name, int64_t rows, int32_t k, Dtype dtype) {
  const size_t count = static_cast<size_t>(rows) * static_cast<size_t>(k);
  DeviceBuffer b;
  b.name = std::move(name);
  b.bytes = HostBytes::generated(
      std::string("deterministic_input_matrix/") + to_string(dtype) + "/" + std::to_string(rows) + "x" + std::to_string(k),
      [&] { return dtype == Dtype::F32 ? input_bytes<float>(count) : input_bytes<double>(count); });
  b.size = b.bytes.size();
  return b;
}

}  // namespace ktune
