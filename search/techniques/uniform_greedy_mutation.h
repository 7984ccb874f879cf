#pragma once
// Greedy mutation where a mutated parameter takes a uniformly random other value
// (OpenTuner's UniformGreedyMutation, mutation rate 0.1).
#include "search/techniques/greedy_mutation.h"

namespace ktune {

class UniformGreedyMutation : public GreedyMutation {
 public:
  explicit UniformGreedyMutation(double mutation_rate = 0.1) : GreedyMutation(mutation_rate) {}
  std::string name() const override { return "uniform_greedy_mutation"; }

 protected:
  void mutate(const Parameter& p, double& coordinate, Rng& rng) const override;
};

}  // namespace ktune
