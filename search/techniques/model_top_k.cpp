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
  if (const auto* all = results.valid_configs()) {
    if (!ranked_done_) {
      std::vector<Ranked> ranked;
      for (size_t i = 0; i < all->size(); ++i) {
        const Config& c = (*all)[i];
        const std::optional<double> known = known_ ? known_(c) : std::optional<double>(predict_(c));
        if (known) ranked.push_back({*known, results.valid_keys()[i], c});
        else unranked_.emplace_back(results.valid_keys()[i], c);
      }
      std::sort(ranked.begin(), ranked.end());
      for (auto& r : ranked) ranked_.push_back({std::move(r.key), std::move(r.config)});
      ranked_done_ = true;
    }
    for (;;) {
      for (const auto& [key, c] : ranked_)
        if (!results.seen_key(key)) return c;
      if (unranked_.empty()) return std::nullopt;
      std::vector<Ranked> rest;
      for (auto& [key, c] : unranked_) rest.push_back({predict_(c), std::move(key), std::move(c)});
      unranked_.clear();
      std::sort(rest.begin(), rest.end());
      for (auto& r : rest) ranked_.push_back({std::move(r.key), std::move(r.config)});
    }
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
