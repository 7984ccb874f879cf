#include "search/techniques/nelder_mead.h"

#include <algorithm>
#include <numeric>

namespace ktune {

Config NelderMead::wanted(const ResultsStore& results, Rng& rng) {
  if (!started_) restart(results, rng);
  return from_unit(results.space(), current_);
}

void NelderMead::restart(const ResultsStore& results, Rng& rng) {
  const ParameterSpace& space = results.space();
  started_ = true;
  points_ = {to_unit(space, best_or_random(results, rng))};
  for (size_t i = 0; i < space.params.size(); ++i) points_.push_back(to_unit(space, space.random_valid(rng)));
  times_.assign(points_.size(), 0.0);
  previous_.clear();
  phase_ = Phase::Initial;
  index_ = 0;
  current_ = points_[0];
}

void NelderMead::begin_iteration(const ResultsStore& results, Rng& rng) {
  if (points_.size() < 2) return restart(results, rng);
  std::vector<size_t> order(points_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return times_[a] < times_[b]; });
  std::vector<UnitPoint> points;
  std::vector<double> times;
  for (size_t i : order) {
    points.push_back(points_[i]);
    times.push_back(times_[i]);
  }
  points_ = std::move(points);
  times_ = std::move(times);
  if (points_ == previous_) return restart(results, rng);  // converged
  previous_ = points_;

  centroid_.assign(points_[0].size(), 0.0);
  for (size_t v = 0; v + 1 < points_.size(); ++v) {
    for (size_t i = 0; i < centroid_.size(); ++i) centroid_[i] += points_[v][i] / static_cast<double>(points_.size() - 1);
  }
  // centroid + alpha * (centroid - worst)
  reflection_ = affine(centroid_, kReflect, centroid_, points_.back());
  phase_ = Phase::Reflect;
  current_ = reflection_;
}

void NelderMead::replace_worst(const UnitPoint& p, double time_us, const ResultsStore& results, Rng& rng) {
  points_.back() = p;
  times_.back() = time_us;
  begin_iteration(results, rng);
}

void NelderMead::answer(double time_us, const ResultsStore& results, Rng& rng) {
  switch (phase_) {
    case Phase::Initial:
    case Phase::Shrink:
      times_[index_] = time_us;
      if (++index_ < points_.size()) {
        current_ = points_[index_];
      } else {
        begin_iteration(results, rng);
      }
      return;
    case Phase::Reflect:
      reflection_time_ = time_us;
      if (time_us < times_.front()) {
        expansion_ = affine(centroid_, kExpand, reflection_, centroid_);
        phase_ = Phase::Expand;
        current_ = expansion_;
      } else if (time_us < times_[1]) {
        replace_worst(reflection_, time_us, results, rng);
      } else {
        // Outside contraction from the reflection when it beats the worst, inside otherwise.
        const bool outside = time_us <= times_.back();
        contract_base_time_ = outside ? time_us : times_.back();
        contraction_ = affine(centroid_, kContract, outside ? reflection_ : points_.back(), centroid_);
        phase_ = Phase::Contract;
        current_ = contraction_;
      }
      return;
    case Phase::Expand:
      if (time_us < reflection_time_) {
        replace_worst(expansion_, time_us, results, rng);
      } else {
        replace_worst(reflection_, reflection_time_, results, rng);
      }
      return;
    case Phase::Contract:
      if (time_us <= contract_base_time_) return replace_worst(contraction_, time_us, results, rng);
      for (size_t v = 1; v < points_.size(); ++v) points_[v] = affine(points_[0], kShrink, points_[v], points_[0]);
      phase_ = Phase::Shrink;
      index_ = 1;
      current_ = points_[1];
      return;
  }
}

}  // namespace ktune
