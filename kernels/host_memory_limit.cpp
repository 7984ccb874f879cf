#include "kernels/host_memory_limit.h"

#include <unistd.h>

#include <cstdint>

#include "workload/input_error.h"

namespace ktune {

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
}

void check_host_operands(const std::string& what, double bytes, const std::string& advice) {
  const double allowed = kHostOperandShare * physical_memory_bytes();
  if (allowed <= 0 || bytes <= allowed) return;
  const auto mib = [](double b) { return std::to_string(static_cast<int64_t>(b / (1 << 20))); };
  throw LimitError(what + " needs " + mib(bytes) + " MiB of host memory, over the " + mib(allowed) +
                   " MiB (half of this machine's memory) a request may hold; " + advice);
}

}  // namespace ktune
