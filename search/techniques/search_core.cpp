#include "search/techniques/search_core.h"

#include <cmath>

namespace ktune {

ResultsStore::ResultsStore(const ParameterSpace& space) : space_(&space) {
  if (space.nominal_size() <= kEnumerateLimit) {
    valid_ = space.enumerate(static_cast<size_t>(kEnumerateLimit));
    for (const auto& c : valid_) valid_keys_.push_back(space.canonical(c));
    small_ = true;
  }
}

bool ResultsStore::record(const Config& config, double time_us, const std::string& technique) {
  std::string key = space_->canonical(config);
  if (by_key_.count(key)) return false;
  by_key_.emplace(key, history_.size());
  history_.push_back(Observation{config, std::move(key), time_us, technique});
  return true;
}

bool ResultsStore::seen(const Config& config) const { return by_key_.count(space_->canonical(config)) > 0; }

const Observation* ResultsStore::find(const Config& config) const {
  auto it = by_key_.find(space_->canonical(config));
  return it == by_key_.end() ? nullptr : &history_[it->second];
}

std::optional<Observation> ResultsStore::best() const {
  const Observation* best = nullptr;
  for (const auto& o : history_)
    if (o.ok() && (!best || o.time_us < best->time_us)) best = &o;
  if (!best) return std::nullopt;
  return *best;
}

double uniform01(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

double standard_normal(Rng& rng) {
  constexpr double kPi = 3.14159265358979323846;
  const double u1 = 1.0 - uniform01(rng);  // (0, 1]: log stays finite
  const double u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

std::optional<Config> random_unseen(const ResultsStore& results, Rng& rng, size_t max_draws) {
  if (const auto* all = results.valid_configs()) {
    std::vector<const Config*> unseen;
    for (size_t i = 0; i < all->size(); ++i)
      if (!results.seen_key(results.valid_keys()[i])) unseen.push_back(&(*all)[i]);
    if (unseen.empty()) return std::nullopt;
    return *unseen[uniform_below(rng, unseen.size())];
  }
  for (size_t draw = 0; draw < max_draws; ++draw) {
    Config c = results.space().random_valid(rng);
    if (!results.seen(c)) return c;
  }
  return std::nullopt;
}

Config best_or_random(const ResultsStore& results, Rng& rng) {
  if (auto b = results.best()) return b->config;
  return results.space().random_valid(rng);
}

}  // namespace ktune
