#include "kernels/output_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <sstream>

#include "workload/workload.h"

namespace ktune {
namespace {

template <typename T>
double element(std::string_view output, size_t i) {
  T value;
  std::memcpy(&value, output.data() + i * sizeof(T), sizeof(T));
  return static_cast<double>(value);
}

bool same_non_finite(double got, double expected) {
  return std::isnan(expected) ? std::isnan(got) : got == expected;
}

std::string describe_failure(size_t i, double got, double expected, double tolerance) {
  std::ostringstream out;
  out.precision(9);
  out << "output element " << i << " is " << got << ", expected " << expected;
  if (std::isnan(got)) {
    out << " (outputs are poisoned with NaN first: the kernel did not write it, or computed NaN)";
  } else if (std::isfinite(expected)) {
    out << " (difference " << std::fabs(got - expected) << " exceeds the tolerance " << tolerance << ")";
  }
  return out.str();
}

// Empty when `output` holds `n` values of `dtype`, one of `accepted`, else why not.
std::string size_problem(std::string_view output, Dtype dtype, size_t n, std::initializer_list<Dtype> accepted) {
  if (std::find(accepted.begin(), accepted.end(), dtype) == accepted.end()) {
    if (dtype == Dtype::I32) return "outputs of i32 are integers: they are checked exactly, not within a tolerance";
    return std::string("outputs of ") + to_string(dtype) + " are not checked";
  }
  if (output.size() != n * dtype_size(dtype))
    return "the output holds " + std::to_string(output.size()) + " bytes, expected " + std::to_string(n) + " " +
           to_string(dtype) + " values";
  return "";
}

}  // namespace

double output_element(std::string_view output, Dtype dtype, size_t i) {
  switch (dtype) {
    case Dtype::F32: return element<float>(output, i);
    case Dtype::I32: return element<int32_t>(output, i);
    default: return element<double>(output, i);
  }
}

std::string output_size_problem(std::string_view output, Dtype dtype, size_t n) {
  return size_problem(output, dtype, n, {Dtype::F32, Dtype::F64, Dtype::I32});
}

Verdict check_reduction_output(std::string_view output, Dtype dtype, const std::vector<double>& reference,
                               const ReductionLength& reduction_length) {
  Verdict result;
  const size_t n = reference.size();
  if (result.message = size_problem(output, dtype, n, {Dtype::F32, Dtype::F64}); !result.message.empty())
    return result;
  const bool f32 = dtype == Dtype::F32;
  const double unit_roundoff = f32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
  const double smallest_normal =
      f32 ? static_cast<double>(std::numeric_limits<float>::min()) : std::numeric_limits<double>::min();
  double largest = 0;
  for (double r : reference) {
    if (std::isfinite(r)) largest = std::max(largest, std::fabs(r));
  }
  const double scale = std::max(largest, smallest_normal);

  for (size_t i = 0; i < n; ++i) {
    const double got = f32 ? element<float>(output, i) : element<double>(output, i);
    const double expected = reference[i];
    const double length = reduction_length(i);
    const double tolerance = 8 * unit_roundoff * (length + 2) * largest + smallest_normal;
    bool good;
    if (!std::isfinite(expected)) {
      good = same_non_finite(got, expected);
    } else if (!std::isfinite(got)) {
      good = false;
      result.max_rel_error = std::numeric_limits<double>::infinity();
    } else {
      const double difference = std::fabs(got - expected);
      result.max_rel_error = std::max(result.max_rel_error, difference / scale);
      good = difference <= tolerance;
    }
    if (!good && result.bad_elements++ == 0) result.message = describe_failure(i, got, expected, tolerance);
  }
  result.ok = result.bad_elements == 0;
  if (!result.ok) result.message += "; " + std::to_string(result.bad_elements) + " of " + std::to_string(n) + " wrong";
  return result;
}

Verdict check_exact_output(std::string_view output, Dtype dtype, const std::vector<double>& reference) {
  Verdict result;
  const size_t n = reference.size();
  if (result.message = output_size_problem(output, dtype, n); !result.message.empty()) return result;
  for (size_t i = 0; i < n; ++i) {
    const double got = output_element(output, dtype, i);
    if (got == reference[i] || same_non_finite(got, reference[i])) continue;
    if (result.bad_elements++ == 0) result.message = describe_failure(i, got, reference[i], 0);
  }
  result.ok = result.bad_elements == 0;
  if (!result.ok) result.message += "; " + std::to_string(result.bad_elements) + " of " + std::to_string(n) + " wrong";
  return result;
}

}  // namespace ktune
