#pragma once
// Differential evolution as OpenTuner's DifferentialEvolutionAlt (the variant its default
// ensemble uses): a population of 30 random configurations; each round the oldest member is
// challenged by x1 + F (x2 - x3) on the crossed-over parameters (at least one, each other with
// probability cr = 0.2; F uniform in [0.5, 1)), the three parents drawn from the rest of the
// population plus the best configuration so far (information sharing). The challenger
// replaces the member when faster.
#include <cstddef>
#include <vector>

#include "search/techniques/sequential_technique.h"
#include "search/techniques/unit_space.h"

namespace ktune {

class DifferentialEvolution : public SequentialTechnique {
 public:
  explicit DifferentialEvolution(size_t population_size = 30, double crossover_rate = 0.2)
      : population_size_(population_size), crossover_rate_(crossover_rate) {}
  std::string name() const override { return "differential_evolution"; }

 protected:
  Config wanted(const ResultsStore& results, Rng& rng) override;
  void answer(double time_us, const ResultsStore& results, Rng& rng) override;
  void restart(const ResultsStore& results, Rng& rng) override;
  size_t stale_limit() const override { return 4 * population_size_; }

 private:
  static constexpr size_t kDuplicateRetries = 5;
  void challenge(const ResultsStore& results, Rng& rng);  // builds the next challenger

  size_t population_size_;
  double crossover_rate_;
  bool started_ = false;
  std::vector<UnitPoint> members_;
  std::vector<double> times_;
  size_t evaluated_ = 0;  // members with a known time; the rest are the initial population
  size_t oldest_ = 0;     // members are challenged in turn, which is oldest-first
  UnitPoint challenger_;
};

}  // namespace ktune
