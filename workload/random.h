#pragma once
// Counter-based randomness for the generators: every stream is derived from (seed, index),
// so results depend on the seed only, never on how the work was split over threads.
#include <cstdint>

namespace ktune {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class RandomStream {
 public:
  RandomStream(uint64_t seed, uint64_t stream) : state_(splitmix64(seed ^ splitmix64(stream))) {}

  uint64_t next() { return splitmix64(state_++); }
  // Uniform in [0, bound) by multiply-shift (bias below 2^-32 for bounds under 2^31).
  uint32_t below(uint32_t bound) { return static_cast<uint32_t>(((next() >> 32) * bound) >> 32); }
  // The generators' value distribution: uniform in [0.5, 1.5).
  double value() { return 0.5 + static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace ktune
