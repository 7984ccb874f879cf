#pragma once
// What the tests hand a family's verify(): values (interpreted, or made up) as the device would
// leave them in an output of `dtype`, and the plan's check data.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/kernel_family.h"

namespace ktune::testing_support {

// NaN in an i32 output stands for an element the kernel never wrote: on the device it holds
// the poison.
inline std::string output_bytes(const std::vector<double>& values, Dtype dtype) {
  std::string out(values.size() * dtype_size(dtype), '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == Dtype::F32) {
      const float v = static_cast<float>(values[i]);
      std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
    } else if (dtype == Dtype::I32) {
      const int32_t v = std::isnan(values[i]) ? int32_t{0x7FF87FF8} : static_cast<int32_t>(values[i]);
      std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
    } else {
      std::memcpy(out.data() + i * sizeof(double), &values[i], sizeof(double));
    }
  }
  return out;
}

// What the worker reads back of a whole output for the verifier: its read ranges one after
// another, or all of it.
inline std::vector<double> read_back(const PlanOutput& o, const std::vector<double>& whole) {
  if (o.read_ranges.empty()) return whole;
  std::vector<double> got;
  for (const auto& [first, last] : o.read_ranges) got.insert(got.end(), whole.begin() + first, whole.begin() + last);
  return got;
}

inline CheckData check_data_of(const LaunchPlan& plan) {
  CheckData data;
  for (const auto& [name, bytes] : plan.check_data) data[name] = bytes.view();
  return data;
}

}  // namespace ktune::testing_support
