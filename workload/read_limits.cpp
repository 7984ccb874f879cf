#include "workload/read_limits.h"

#include <algorithm>
#include <limits>
#include <string>

#include "workload/input_error.h"

namespace ktune {

void check_matrix_size(int64_t rows, int64_t cols, int64_t entries, const ReadLimits& limits) {
  const int64_t int32_max = std::numeric_limits<int32_t>::max();
  auto check = [](int64_t value, int64_t limit, const std::string& what, const char* flag) {
    if (value > limit)
      throw LimitError(std::to_string(value) + " " + what + " exceed the limit of " + std::to_string(limit) + " (" +
                       flag + ")");
  };
  check(rows, std::min(limits.max_rows, int32_max), "rows", "--max-rows");
  check(cols, std::min(limits.max_cols, int32_max), "columns", "--max-rows");
  check(entries, limits.max_entries, "entries", "--max-nnz");
  // Saturating: entries up to 2^31 times a per-entry allowance stay far below 2^63.
  const int64_t allowed = limits.free_dimension + limits.dimension_per_entry * std::max<int64_t>(entries, 0);
  const int64_t larger = std::max(rows, cols);
  if (larger > allowed)
    throw LimitError("a matrix with " + std::to_string(entries) + " entries may have at most " +
                     std::to_string(allowed) + " rows and columns (" + std::to_string(limits.free_dimension) + " plus " +
                     std::to_string(limits.dimension_per_entry) + " per entry, --max-rows-per-nnz), not " +
                     std::to_string(larger) + ": ktune's time and memory grow with both");
}

uint64_t max_text_bytes(int64_t entries, const ReadLimits& limits) {
  return limits.text_slack_bytes + limits.bytes_per_entry * static_cast<uint64_t>(std::max<int64_t>(entries, 0));
}

}  // namespace ktune
