#pragma once
// OpenTuner's greedy mutation (evolutionarytechniques.py): mutate the best configuration so
// far (a random one before any) in one parameter for sure and in each other with probability
// `mutation_rate`. Subclasses say how one parameter mutates.
#include <cstddef>

#include "search/techniques/search_core.h"
#include "search/techniques/unit_space.h"

namespace ktune {

class GreedyMutation : public Technique {
 public:
  explicit GreedyMutation(double mutation_rate) : mutation_rate_(mutation_rate) {}
  std::optional<Config> propose(const ResultsStore& results, Rng& rng) override;

 protected:
  // Moves coordinate `i` of `point` (unit form); the parameter is space.params[i].
  virtual void mutate(const Parameter& p, double& coordinate, Rng& rng) const = 0;

 private:
  static constexpr size_t kTries = 50;  // mutants drawn before saying "nothing new"
  double mutation_rate_;
};

}  // namespace ktune
