#include "search/techniques/sequential_technique.h"

namespace ktune {

std::optional<Config> SequentialTechnique::propose(const ResultsStore& results, Rng& rng) {
  const ParameterSpace& space = results.space();
  for (size_t step = 0; step < kMaxSteps; ++step) {
    Config next = wanted(results, rng);
    double time_us = std::numeric_limits<double>::infinity();
    if (space.valid(next)) {
      const Observation* known = results.find(next);
      if (!known) {
        std::string key = space.canonical(next);
        // Proposed before and not recorded yet: the walk waits for that result.
        if (key == waiting_for_) return std::nullopt;
        waiting_for_ = std::move(key);
        stale_ = 0;
        return next;
      }
      time_us = known->time_us;
    }
    answer(time_us, results, rng);
    if (++stale_ > stale_limit()) {
      stale_ = 0;
      restart(results, rng);
    }
  }
  return std::nullopt;
}

}  // namespace ktune
