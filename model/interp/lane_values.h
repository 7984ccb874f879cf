#pragma once
// How the interpreter keeps values: every register of every lane is a 64-bit slot holding
// the value's bits, zero-extended from the width written (a predicate is 0 or 1). Readers
// take the low bits their type needs; signed readers sign-extend them.
#include <cstdint>
#include <cstring>

#include "model/interp/prepared_kernel.h"

namespace ktune::interp {

inline uint64_t low_mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
inline int64_t sign_extend(uint64_t v, int bits) {
  return bits >= 64 ? static_cast<int64_t>(v)
                    : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
}
inline float as_f32(uint64_t v) {
  const uint32_t u = static_cast<uint32_t>(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline double as_f64(uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}
inline uint64_t f32_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline uint64_t f64_to_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

// One warp's register file: slot-major, 32 lanes per slot.
struct RegisterFile {
  uint64_t* slots = nullptr;
  uint64_t& at(uint32_t slot, uint32_t lane) { return slots[slot * kLanes + lane]; }
  uint64_t get(uint32_t slot, uint32_t lane) const { return slots[slot * kLanes + lane]; }
};

// Calls f(lane) for every set bit of mask, lowest lane first. A full warp, the common case,
// runs a plain counted loop the compiler can unroll and vectorise.
template <typename F>
inline void for_lanes(uint32_t mask, F&& f) {
  if (mask == ~uint32_t{0}) {
    for (uint32_t lane = 0; lane < kLanes; ++lane) f(lane);
    return;
  }
  while (mask) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(mask));
    f(lane);
    mask &= mask - 1;
  }
}

}  // namespace ktune::interp
