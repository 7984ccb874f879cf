#include "search/techniques/differential_evolution.h"

#include <algorithm>
#include <numeric>

namespace ktune {

void DifferentialEvolution::restart(const ResultsStore& results, Rng& rng) {
  const ParameterSpace& space = results.space();
  started_ = true;
  members_.clear();
  for (size_t i = 0; i < population_size_; ++i) members_.push_back(to_unit(space, space.random_valid(rng)));
  times_.assign(members_.size(), 0.0);
  evaluated_ = 0;
  oldest_ = 0;
}

Config DifferentialEvolution::wanted(const ResultsStore& results, Rng& rng) {
  if (!started_) restart(results, rng);
  return from_unit(results.space(), evaluated_ < members_.size() ? members_[evaluated_] : challenger_);
}

void DifferentialEvolution::answer(double time_us, const ResultsStore& results, Rng& rng) {
  if (evaluated_ < members_.size()) {
    times_[evaluated_++] = time_us;
  } else {
    if (time_us < times_[oldest_]) {
      members_[oldest_] = challenger_;
      times_[oldest_] = time_us;
    }
    oldest_ = (oldest_ + 1) % members_.size();
  }
  if (evaluated_ == members_.size()) challenge(results, rng);
}

void DifferentialEvolution::challenge(const ResultsStore& results, Rng& rng) {
  const ParameterSpace& space = results.space();
  std::vector<UnitPoint> pool;
  for (size_t i = 0; i < members_.size(); ++i)
    if (i != oldest_) pool.push_back(members_[i]);
  if (auto best = results.best()) pool.push_back(to_unit(space, best->config));
  if (pool.size() < 3) {
    challenger_ = to_unit(space, space.random_valid(rng));
    return;
  }
  std::vector<size_t> params(space.params.size());
  std::iota(params.begin(), params.end(), 0);
  for (size_t retry = 0; retry < kDuplicateRetries; ++retry) {
    shuffle_in_place(pool, rng);
    const double f = uniform01(rng) / 2.0 + 0.5;
    shuffle_in_place(params, rng);
    challenger_ = members_[oldest_];
    for (size_t j = 0; j < params.size(); ++j) {
      if (j == 0 || uniform01(rng) < crossover_rate_) {
        const size_t k = params[j];
        challenger_[k] = std::clamp(pool[0][k] + f * (pool[1][k] - pool[2][k]), 0.0, 1.0);
      }
    }
    if (!results.seen(from_unit(space, challenger_))) return;
  }
}

}  // namespace ktune
