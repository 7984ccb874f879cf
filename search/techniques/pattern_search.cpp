#include "search/techniques/pattern_search.h"

#include <algorithm>
#include <cmath>

namespace ktune {

void PatternSearch::restart(const ResultsStore& results, Rng& rng) {
  // The first walk starts at the best so far; later ones explore from random centres.
  start_at(started_ ? results.space().random_valid(rng) : best_or_random(results, rng), kInitialStep, results, rng);
  started_ = true;
}

void PatternSearch::start_at(const Config& centre, double step, const ResultsStore& results, Rng& rng) {
  const ParameterSpace& space = results.space();
  double smallest = 1.0;  // the finest resolution over the parameters, in unit form
  for (const auto& p : space.params)
    if (p.count() > 1) smallest = std::min(smallest, 1.0 / static_cast<double>(p.count() - 1));
  if (step < kInitialStep && step < smallest / 2) return restart(results, rng);

  centre_ = centre;
  step_ = step;
  const std::vector<int64_t> at = space.to_indices(centre);
  pattern_ = {centre};
  for (size_t i = 0; i < at.size(); ++i) {
    const Parameter& p = space.params[i];
    const int64_t n = p.count();
    std::vector<int64_t> moves;
    if (p.kind == ParamKind::Enum || p.kind == ParamKind::Bool) {
      // No order to step along: every other choice, as OpenTuner's manipulators of a
      // non-numeric parameter.
      for (int64_t v = 0; v < n; ++v)
        if (v != at[i]) moves.push_back(v);
    } else {
      // At least one position, so that a coarse parameter still moves under a fine step.
      const int64_t delta = std::max<int64_t>(1, std::llround(step * static_cast<double>(n - 1)));
      if (at[i] > 0) moves.push_back(std::max<int64_t>(0, at[i] - delta));
      if (at[i] + 1 < n) moves.push_back(std::min<int64_t>(n - 1, at[i] + delta));
    }
    for (int64_t v : moves) {
      std::vector<int64_t> point = at;
      point[i] = v;
      pattern_.push_back(space.from_indices(point));
    }
  }
  index_ = 0;
}

Config PatternSearch::wanted(const ResultsStore& results, Rng& rng) {
  if (!started_) restart(results, rng);
  return pattern_[index_];
}

void PatternSearch::answer(double time_us, const ResultsStore& results, Rng& rng) {
  if (index_ == 0) centre_time_ = time_us;
  if (++index_ < pattern_.size()) return;
  next_pattern(results, rng);
}

void PatternSearch::next_pattern(const ResultsStore& results, Rng& rng) {
  const auto best = results.best();
  if (best && best->time_us < centre_time_) {
    start_at(best->config, step_, results, rng);
  } else {
    start_at(centre_, step_ / 2, results, rng);
  }
}

}  // namespace ktune
