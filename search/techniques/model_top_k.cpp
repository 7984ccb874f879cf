#include "search/techniques/model_top_k.h"

#include <algorithm>

namespace ktune {

namespace {

struct Ranked {
  double predicted;
  std::string key;
  Config config;
  bool operator<(const Ranked& o) const { return predicted != o.predicted ? predicted < o.predicted : key < o.key; }
};

}  // namespace

std::optional<Config> ModelTopK::propose(const ResultsStore& results, Rng& rng) {
  const ParameterSpace& space = results.space();
  while (next_first_ < ranked_first_.size()) {
    const Config& c = ranked_first_[next_first_++];
    if (!results.seen(c) && space.valid(c)) return c;
  }
  if (const auto* all = results.valid_configs()) {
    if (!ranked_done_) {
      std::vector<Ranked> ranked;
      for (size_t i = 0; i < all->size(); ++i) ranked.push_back({predict_((*all)[i]), results.valid_keys()[i], (*all)[i]});
      std::sort(ranked.begin(), ranked.end());
      for (auto& r : ranked) ranked_.push_back({std::move(r.key), std::move(r.config)});
      ranked_done_ = true;
    }
    for (const auto& [key, c] : ranked_)
      if (!results.seen_key(key)) return c;
    return std::nullopt;
  }
  std::optional<Ranked> best;
  for (size_t i = 0; i < pool_; ++i) {
    auto c = random_unseen(results, rng, 16);
    if (!c) continue;
    Ranked r{predict_(*c), space.canonical(*c), std::move(*c)};
    if (!best || r < *best) best = std::move(r);
  }
  if (!best) return std::nullopt;
  return best->config;
}

}  // namespace ktune
