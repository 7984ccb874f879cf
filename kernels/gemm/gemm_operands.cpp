#include "kernels/gemm/gemm_operands.h"

#include <cstring>

namespace ktune {

namespace {

// splitmix64's finaliser: neighbouring indices give unrelated values.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint32_t float_bits(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

template <typename T>
void fill(std::vector<std::byte>& bytes, GemmOperand operand, size_t count, T (*convert)(double)) {
  for (size_t i = 0; i < count; ++i) {
    const T v = convert(gemm_input_value(operand, static_cast<int64_t>(i)));
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
}

}  // namespace

double gemm_input_value(GemmOperand operand, int64_t index) {
  const uint64_t h = mix(static_cast<uint64_t>(index) * 4 + static_cast<uint64_t>(operand));
  return (static_cast<double>(h % 255) - 127.0) / 128.0;
}

uint16_t to_bf16_bits(float v) { return static_cast<uint16_t>(float_bits(v) >> 16); }

uint16_t to_f16_bits(float v) {
  const uint32_t bits = float_bits(v);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if ((bits & 0x7FFFFFFFu) == 0) return sign;
  // Normal f16 values only (|v| in [2^-14, 65504]): gemm_input_value's are.
  const int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xFF) - 127 + 15;
  return static_cast<uint16_t>(sign | (exponent << 10) | ((bits >> 13) & 0x3FF));
}

DeviceBuffer gemm_operand_buffer(const std::string& name, GemmOperand operand, double elements, Dtype dtype) {
  const size_t count = static_cast<size_t>(elements);
  DeviceBuffer b;
  b.name = name;
  const std::string recipe = "gemm_operand/" + std::to_string(static_cast<uint32_t>(operand)) + "/" +
                             to_string(dtype) + "/" + std::to_string(count);
  b.bytes = HostBytes::generated(recipe, [&] {
    std::vector<std::byte> bytes(count * dtype_size(dtype));
    switch (dtype) {
      case Dtype::F64: fill<double>(bytes, operand, count, [](double v) { return v; }); break;
      case Dtype::F32:
      case Dtype::TF32: fill<float>(bytes, operand, count, [](double v) { return static_cast<float>(v); }); break;
      case Dtype::BF16:
        fill<uint16_t>(bytes, operand, count, [](double v) { return to_bf16_bits(static_cast<float>(v)); });
        break;
      default: fill<uint16_t>(bytes, operand, count, [](double v) { return to_f16_bits(static_cast<float>(v)); }); break;
    }
    return bytes;
  });
  b.size = b.bytes.size();
  return b;
}

}  // namespace ktune
