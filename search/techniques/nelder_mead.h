#pragma once
// Nelder-Mead downhill simplex in unit form, as OpenTuner's RandomNelderMead: the first vertex
// is the best configuration so far (random before any), the others random; reflection 2.0
// (OpenTuner's choice, which keeps a one-parameter simplex from collapsing), expansion 2.0,
// contraction 0.5, shrink 0.5. It restarts with a fresh simplex when the simplex stops
// changing or the walk stays in measured ground (3 x vertices + 1 answers without a new
// configuration, OpenTuner's convergence rule).
#include <vector>

#include "search/techniques/sequential_technique.h"
#include "search/techniques/unit_space.h"

namespace ktune {

class NelderMead : public SequentialTechnique {
 public:
  std::string name() const override { return "nelder_mead"; }

 protected:
  Config wanted(const ResultsStore& results, Rng& rng) override;
  void answer(double time_us, const ResultsStore& results, Rng& rng) override;
  void restart(const ResultsStore& results, Rng& rng) override;
  size_t stale_limit() const override { return 3 * points_.size() + 1; }

 private:
  enum class Phase { Initial, Reflect, Expand, Contract, Shrink };
  static constexpr double kReflect = 2.0, kExpand = 2.0, kContract = 0.5, kShrink = 0.5;

  void begin_iteration(const ResultsStore& results, Rng& rng);
  void replace_worst(const UnitPoint& p, double time_us, const ResultsStore& results, Rng& rng);

  bool started_ = false;
  Phase phase_ = Phase::Initial;
  std::vector<UnitPoint> points_;  // the simplex, sorted best first at each iteration
  std::vector<double> times_;
  std::vector<UnitPoint> previous_;  // the simplex of the previous iteration
  size_t index_ = 0;                 // vertex being evaluated (Initial, Shrink)
  UnitPoint centroid_, reflection_, expansion_, contraction_;
  double reflection_time_ = 0, contract_base_time_ = 0;
  UnitPoint current_;
};

}  // namespace ktune
