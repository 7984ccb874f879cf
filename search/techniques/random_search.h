#pragma once
// Pure random search: the baseline every other technique must beat, and in the ensemble the
// arm that guarantees every valid configuration is eventually reached.
#include "search/techniques/search_core.h"

namespace ktune {

class RandomSearch : public Technique {
 public:
  std::string name() const override { return "random"; }
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override {
    return random_unseen(results, rng);
  }
};

}  // namespace ktune
