#include "kernels/input_vector.h"

#include <cstdint>

namespace ktune {

namespace {

// SplitMix64: defined bit for bit, unlike the standard distributions, whose output varies
// between standard libraries.
uint64_t splitmix64(uint64_t state) {
  uint64_t z = state + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr int kFractionBits = 20;  // fewer than fp32's 24-bit significand: exact in float
constexpr uint64_t kSeed = 0x6b74756e65ULL;

}  // namespace

double deterministic_input_value(size_t i) {
  const uint64_t fraction = splitmix64(kSeed + i) >> (64 - kFractionBits);
  return 0.5 + static_cast<double>(fraction) / static_cast<double>(uint64_t{1} << kFractionBits);
}

std::vector<double> deterministic_input_vector(size_t length) {
  std::vector<double> x(length);
  for (size_t i = 0; i < length; ++i) x[i] = deterministic_input_value(i);
  return x;
}

std::vector<double> deterministic_input_matrix(size_t rows, size_t cols) {
  return deterministic_input_vector(rows * cols);
}

}  // namespace ktune
