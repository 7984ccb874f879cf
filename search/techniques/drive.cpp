#include "search/techniques/drive.h"

namespace ktune {

size_t drive(Technique& technique, ResultsStore& results, Rng& rng, const MeasureFn& measure, size_t budget) {
  size_t recorded = 0;
  while (recorded < budget) {
    const auto c = technique.propose(results, rng);
    if (!c) break;
    if (!results.record(*c, measure(*c), technique.proposer())) break;  // a repeat: a bug upstream
    ++recorded;
    technique.observe(results.history().back());
  }
  return recorded;
}

}  // namespace ktune
