#include "kernels/sddmm/sddmm_dense_input.h"

#include <cstring>

#include "workload/parallel.h"

namespace ktune {

namespace {

constexpr uint64_t kSeedA = 0x5ddd3a;
constexpr uint64_t kSeedB = 0x5ddd3b;
constexpr int kFractionBits = 20;
constexpr int64_t kValuesPerThread = 1 << 22;

// Value i of an operand: MurmurHash3's 64-bit finaliser of (seed, i), defined bit for bit (the
// standard distributions are not) and counter-based, so an operand of gigabytes is filled on
// every core. 21 of its bits make a value in [-1, 1).
float operand_value(uint64_t seed, uint64_t i) {
  uint64_t h = (seed << 40) ^ i;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  const int64_t bits = static_cast<int64_t>(h >> (64 - kFractionBits - 1));
  return static_cast<float>(bits - (int64_t{1} << kFractionBits)) / static_cast<float>(int64_t{1} << kFractionBits);
}

uint64_t seed_of(DenseOperand which) { return which == DenseOperand::A ? kSeedA : kSeedB; }

// Calls write(i, value) for every value of the operand, on as many cores as pay.
template <typename Write>
void for_each_value(DenseOperand which, size_t count, Write write) {
  const uint64_t seed = seed_of(which);
  const int threads = worker_count(static_cast<int64_t>(count), kValuesPerThread);
  parallel_for(threads, threads, [&](int t) {
    const size_t end = static_cast<size_t>(part_begin(static_cast<int64_t>(count), threads, t + 1));
    for (size_t i = static_cast<size_t>(part_begin(static_cast<int64_t>(count), threads, t)); i < end; ++i)
      write(i, operand_value(seed, i));
  });
}

template <typename T>
std::vector<std::byte> operand_bytes(DenseOperand which, size_t count) {
  std::vector<std::byte> bytes(count * sizeof(T));
  for_each_value(which, count, [&bytes](size_t i, float v) {
    const T value = static_cast<T>(v);
    std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
  });
  return bytes;
}

}  // namespace

std::vector<float> dense_operand(DenseOperand which, int64_t rows, int32_t k) {
  std::vector<float> out(static_cast<size_t>(rows) * static_cast<size_t>(k));
  for_each_value(which, out.size(), [&out](size_t i, float v) { out[i] = v; });
  return out;
}

DeviceBuffer dense_operand_buffer(std::string name, DenseOperand which, int64_t rows, int32_t k, Dtype dtype) {
  const size_t count = static_cast<size_t>(rows) * static_cast<size_t>(k);
  DeviceBuffer b;
  b.name = std::move(name);
  b.bytes = HostBytes::generated(
      std::string("sddmm_dense_operand/") + (which == DenseOperand::A ? "a/" : "b/") + to_string(dtype) + "/" +
          std::to_string(rows) + "x" + std::to_string(k),
      [&] { return dtype == Dtype::F32 ? operand_bytes<float>(which, count) : operand_bytes<double>(which, count); });
  b.size = b.bytes.size();
  return b;
}

}  // namespace ktune
