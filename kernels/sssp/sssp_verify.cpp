#include "kernels/sssp/sssp_verify.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ktune {

Verdict check_float_distances(std::string_view got, const std::vector<double>& expected, double min_weight,
                              size_t vertices) {
  Verdict v;
  if (std::string why = output_size_problem(got, Dtype::F32, expected.size()); !why.empty()) {
    v.message = why;
    return v;
  }
  constexpr double kUnitRoundoff = 0x1p-24;
  const auto n = static_cast<double>(std::max<size_t>(vertices, 1));
  for (size_t i = 0; i < expected.size(); ++i) {
    const double ref = expected[i];
    const double y = output_element(got, Dtype::F32, i);
    bool ok;
    double error = 0;
    if (std::isinf(ref)) {
      ok = std::isinf(y) && y > 0;
    } else {
      const double hops = min_weight > 0 ? std::min(n, std::ceil(1.01 * ref / min_weight) + 1) : n;
      error = std::fabs(y - ref);
      ok = std::isfinite(y) && error <= 2 * kUnitRoundoff * hops * ref;
      if (ref > 0) v.max_rel_error = std::max(v.max_rel_error, error / ref);
    }
    if (!std::isfinite(y) && !std::isinf(ref)) v.max_rel_error = INFINITY;
    if (ok) continue;
    if (v.bad_elements++ == 0)
      v.message = "distance " + std::to_string(i) + " is " + std::to_string(y) + ", expected " + std::to_string(ref);
  }
  v.ok = v.bad_elements == 0;
  if (!v.ok) v.message += " (" + std::to_string(v.bad_elements) + " wrong distances)";
  return v;
}

}  // namespace ktune
