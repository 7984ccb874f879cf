#include "search/candidate_order.h"

#include <algorithm>
#include <cmath>

namespace ktune {

ResourceUsage combined_usage(const CompiledKernel& kernel) {
  ResourceUsage total;
  for (const auto& [entry, u] : kernel.usage) {
    total.registers = std::max(total.registers, u.registers);
    total.shared_bytes = std::max(total.shared_bytes, u.shared_bytes);
    total.stack_bytes = std::max(total.stack_bytes, u.stack_bytes);
    total.spill_stores += u.spill_stores;
    total.spill_loads += u.spill_loads;
  }
  return total;
}

double measurement_noise(const Measurement& a, const Measurement& b) {
  // The larger IQR, and never less than half a percent: timers and clocks wander that much.
  return std::max({a.iqr_us, b.iqr_us, 0.005 * std::min(a.median_us, b.median_us)});
}

bool better_measured(const CandidateOutcome& a, const CandidateOutcome& b) {
  const double ta = a.measurement->median_us, tb = b.measurement->median_us;
  if (std::abs(ta - tb) > measurement_noise(*a.measurement, *b.measurement)) return ta < tb;
  const int ra = a.kernel ? combined_usage(*a.kernel).registers : 0;
  const int rb = b.kernel ? combined_usage(*b.kernel).registers : 0;
  if (ra != rb) return ra < rb;
  return a.config_key < b.config_key;
}

}  // namespace ktune
