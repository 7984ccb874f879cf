#include "search/techniques/auc_bandit.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace ktune {

AucBandit::AucBandit(std::vector<std::unique_ptr<Technique>> techniques, Options options)
    : techniques_(std::move(techniques)),
      options_(options),
      uses_(techniques_.size(), 0),
      auc_sum_(techniques_.size(), 0.0),
      auc_decay_(techniques_.size(), 0),
      best_us_(std::numeric_limits<double>::infinity()) {
  if (techniques_.empty()) throw std::invalid_argument("the AUC bandit needs at least one technique");
  if (options_.window == 0) throw std::invalid_argument("the AUC bandit's window must be positive");
}

double AucBandit::exploitation(size_t i) const {
  const double n = static_cast<double>(uses_[i]);
  return uses_[i] ? auc_sum_[i] * 2.0 / (n * (n + 1.0)) : 0.0;
}

double AucBandit::exploration(size_t i) const {
  if (!uses_[i]) return std::numeric_limits<double>::infinity();
  return std::sqrt(2.0 * std::log2(static_cast<double>(window_.size())) / static_cast<double>(uses_[i]));
}

std::optional<Config> AucBandit::propose(const ResultsStore& results, Rng& rng) {
  std::vector<size_t> order(techniques_.size());
  std::iota(order.begin(), order.end(), 0);
  shuffle_in_place(order, rng);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return score(a) > score(b); });
  for (size_t i : order) {
    auto c = techniques_[i]->propose(results, rng);
    // A technique that breaks its contract is passed over rather than trusted with the GPU.
    if (!c || !results.space().valid(*c) || results.seen(*c)) continue;
    pending_[results.space().canonical(*c)] = i;
    last_proposer_ = techniques_[i]->proposer();
    return c;
  }
  return std::nullopt;
}

void AucBandit::observe(const Observation& o) {
  const bool new_best = o.ok() && o.time_us < best_us_;
  if (new_best) best_us_ = o.time_us;
  const auto it = pending_.find(o.key);
  if (it != pending_.end()) {
    push(it->second, new_best);
    pending_.erase(it);
  }
  for (auto& t : techniques_) t->observe(o);
}

// O(1) window update, as OpenTuner's AUCBanditQueue: a use at position k of its technique's
// uses adds k when it found a new best; dropping the oldest use shifts every later position
// down by one, i.e. subtracts one per new best still in the window.
void AucBandit::push(size_t t, bool new_best) {
  window_.emplace_back(t, new_best);
  ++uses_[t];
  if (new_best) {
    auc_sum_[t] += static_cast<double>(uses_[t]);
    ++auc_decay_[t];
  }
  if (window_.size() > options_.window) {
    const auto [old, was_best] = window_.front();
    window_.pop_front();
    --uses_[old];
    auc_sum_[old] -= static_cast<double>(auc_decay_[old]);
    if (was_best) --auc_decay_[old];
  }
}

}  // namespace ktune
