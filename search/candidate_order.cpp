#include "search/candidate_order.h"

#include <algorithm>
#include <cmath>

#include "gpu/sample_statistics.h"

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
  // Their notches, and never less than half a percent: timers and clocks wander that much
  // between two measurements. (The IQR itself spreads single runs: union-find on R-MAT 20 runs
  // with an IQR of 60 µs about medians of 300-350 over 200 runs, and a tie within it gave the
  // answer to a configuration 15% slower, with fewer registers.)
  const double notches = median_notch(a.iqr_us, a.count) + median_notch(b.iqr_us, b.count);
  return std::max(notches, 0.005 * std::min(a.median_us, b.median_us));
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
