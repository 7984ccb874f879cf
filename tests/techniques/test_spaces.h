#pragma once
// Spaces and objectives the technique tests search: a small toy space that can be exhausted,
// and a synthetic space of about 10^11 nominal points that must never be enumerated.
#include <cmath>
#include <cstdlib>

#include "kernels/parameter_space.h"

namespace ktune::testing {

// 4 x 5 x 3 x 2 = 120 nominal points, 80 valid (odd blocks need the flag).
inline ParameterSpace toy_space() {
  ParameterSpace s;
  s.params = {Parameter::power_of_two("block", 32, 512), Parameter::int_range("unroll", 1, 4),
              Parameter::enumeration("mode", {"a", "b", "c"}), Parameter::boolean("flag")};
  s.constraints = {{"unroll 3 and 4 need the flag",
                    [](const Config& c) { return c.at("unroll") <= 2 || c.at("flag") == 1; }}};
  return s;
}

// x, y in [0, 999], z even in [0, 1998], tile a power of two up to 2^20, mode of 3, flag:
// 1.26e11 nominal points, about half valid (x <= y).
inline ParameterSpace huge_space() {
  ParameterSpace s;
  s.params = {Parameter::int_range("x", 0, 999), Parameter::int_range("y", 0, 999),
              Parameter::int_range("z", 0, 1998, 2), Parameter::power_of_two("tile", 1, 1 << 20),
              Parameter::enumeration("mode", {"a", "b", "c"}), Parameter::boolean("flag")};
  s.constraints = {{"x must not exceed y", [](const Config& c) { return c.at("x") <= c.at("y"); }}};
  return s;
}

// A smooth bowl with its minimum 100 us at x=300, y=800, z=1200, tile=2^12, mode b, flag on.
inline double huge_objective(const Config& c) {
  const double dx = (c.at("x") - 300) / 1000.0, dy = (c.at("y") - 800) / 1000.0, dz = (c.at("z") - 1200) / 2000.0;
  const double dt = (std::log2(static_cast<double>(c.at("tile"))) - 12) / 20.0;
  return 100.0 * (1 + 4 * (dx * dx + dy * dy + dz * dz + dt * dt) + 0.3 * (c.at("mode") != 1) + 0.2 * (c.at("flag") == 0));
}

// Distinct times on the toy space; the best is block=128, unroll=3, mode=c, flag=1.
inline double toy_objective(const Config& c) {
  return 10.0 + std::abs(std::log2(static_cast<double>(c.at("block"))) - 7) + 0.5 * std::abs(c.at("unroll") - 3) +
         0.25 * (c.at("mode") != 2) + 0.1 * (c.at("flag") == 0) + 0.001 * c.at("mode");
}

}  // namespace ktune::testing
