#pragma once
// Argument checks shared by the generators.
#include <cstdint>
#include <limits>
#include <string>

#include "workload/input_error.h"

namespace ktune {

inline void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

// `size` as an int32 index, or a LimitError naming `what` when CsrMatrix cannot hold it.
inline int32_t fitting_int32(int64_t size, const std::string& what) {
  if (size > std::numeric_limits<int32_t>::max()) {
    throw LimitError(what + " would be " + std::to_string(size) + ", more than 2^31-1");
  }
  return static_cast<int32_t>(size);
}

}  // namespace ktune
