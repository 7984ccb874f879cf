#include "search/techniques/unit_space.h"

#include <algorithm>
#include <cmath>

namespace ktune {

UnitPoint to_unit(const ParameterSpace& space, const Config& config) {
  const std::vector<int64_t> at = space.to_indices(config);
  UnitPoint out(at.size(), 0.0);
  for (size_t i = 0; i < at.size(); ++i) {
    const int64_t n = space.params[i].count();
    out[i] = n > 1 ? static_cast<double>(at[i]) / static_cast<double>(n - 1) : 0.0;
  }
  return out;
}

Config from_unit(const ParameterSpace& space, const UnitPoint& point) {
  std::vector<int64_t> at(point.size(), 0);
  for (size_t i = 0; i < point.size(); ++i) {
    const double n = static_cast<double>(space.params[i].count());
    at[i] = static_cast<int64_t>(std::llround(std::clamp(point[i], 0.0, 1.0) * (n - 1)));
  }
  return space.from_indices(at);
}

UnitPoint affine(const UnitPoint& a, double scale, const UnitPoint& b, const UnitPoint& c) {
  UnitPoint out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = std::clamp(a[i] + scale * (b[i] - c[i]), 0.0, 1.0);
  return out;
}

}  // namespace ktune
