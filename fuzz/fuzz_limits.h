#pragma once
// Limits for the fuzz targets: small enough that the fuzzer explores the readers' logic, not
// allocation sizes, and every run stays fast.
#include "workload/read_limits.h"

namespace ktune {

inline ReadLimits fuzz_limits(int64_t max_entries = int64_t{1} << 16) {
  ReadLimits limits;
  limits.max_rows = limits.max_cols = int64_t{1} << 16;
  limits.max_entries = max_entries;
  limits.free_dimension = int64_t{1} << 12;
  limits.text_slack_bytes = size_t{1} << 16;
  return limits;
}

}  // namespace ktune
