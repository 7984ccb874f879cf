#include "search/techniques/search_core.h"

namespace ktune {

void ResultsStore::record(const Config& config, double time_us, const std::string& technique) {
  std::string key = space_->canonical(config);
  if (by_key_.count(key)) return;
  by_key_.emplace(key, history_.size());
  history_.push_back(Observation{config, std::move(key), time_us, technique});
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

}  // namespace ktune
