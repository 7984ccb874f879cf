#pragma once
// Pattern (compass) search as OpenTuner's PatternSearch: around a centre (the best so far, a
// random configuration before any) try each numeric parameter one step down and up (a step
// of 0.4 of its range at first, at least one position) and each enum or bool at its other
// values; after each full pattern move to the best configuration so far if it beats the
// centre, else halve the step. Once the step is below half a position of the finest
// parameter the pattern cannot shrink further, and it restarts from a random centre.
#include <vector>

#include "search/techniques/sequential_technique.h"

namespace ktune {

class PatternSearch : public SequentialTechnique {
 public:
  std::string name() const override { return "pattern_search"; }

 protected:
  Config wanted(const ResultsStore& results, Rng& rng) override;
  void answer(double time_us, const ResultsStore& results, Rng& rng) override;
  void restart(const ResultsStore& results, Rng& rng) override;

 private:
  static constexpr double kInitialStep = 0.4;
  void start_at(const Config& centre, double step, const ResultsStore& results, Rng& rng);
  void next_pattern(const ResultsStore& results, Rng& rng);

  bool started_ = false;
  Config centre_;
  double centre_time_ = 0;
  double step_ = kInitialStep;
  std::vector<Config> pattern_;  // pattern_[0] is the centre itself
  size_t index_ = 0;
};

}  // namespace ktune
