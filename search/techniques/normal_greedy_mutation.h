#pragma once
// Greedy mutation with Gaussian steps (OpenTuner's NormalGreedyMutation as its default
// ensemble uses it: mutation rate 0.3, sigma 0.1 of the range). Numeric parameters move by a
// normal step in unit form, at least one position; enums, which have no order, take a random
// other choice, as OpenTuner mutates non-primitive parameters.
#include "search/techniques/greedy_mutation.h"

namespace ktune {

class NormalGreedyMutation : public GreedyMutation {
 public:
  explicit NormalGreedyMutation(double mutation_rate = 0.3, double sigma = 0.1)
      : GreedyMutation(mutation_rate), sigma_(sigma) {}
  std::string name() const override { return "normal_greedy_mutation"; }

 protected:
  void mutate(const Parameter& p, double& coordinate, Rng& rng) const override;

 private:
  double sigma_;
};

}  // namespace ktune
