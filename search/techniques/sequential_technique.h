#pragma once
// Base of the techniques that walk a path of configurations and need each one's time before
// choosing the next (Nelder-Mead, pattern search, differential evolution), as OpenTuner's
// generator techniques do. The walk may ask for a configuration that needs no measurement:
// one that breaks a constraint counts as infinitely slow, one already in the store (measured
// for another technique) is answered from it. propose() feeds such answers back at once and
// returns the first configuration that really needs measuring.
#include <cstddef>
#include <optional>
#include <string>

#include "search/techniques/search_core.h"

namespace ktune {

class SequentialTechnique : public Technique {
 public:
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) final;

 protected:
  // The configuration the walk needs the time of next; the same until answer() is called.
  virtual Config wanted(const ResultsStore& results, Rng& rng) = 0;
  // Its time (infinity when it failed or breaks a constraint); advances the walk.
  virtual void answer(double time_us, const ResultsStore& results, Rng& rng) = 0;
  // Starts a new walk; called when the current one has gone `stale_limit()` answers without
  // needing a measurement (it is circling in known ground).
  virtual void restart(const ResultsStore& results, Rng& rng) = 0;
  virtual size_t stale_limit() const { return 50; }

 private:
  static constexpr size_t kMaxSteps = 500;  // answers per propose() before giving up
  std::string waiting_for_;  // key proposed and not yet recorded
  size_t stale_ = 0;
};

}  // namespace ktune
