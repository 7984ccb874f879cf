#include "server/config_lookup.h"

#include "workload/signature.h"

namespace ktune {

std::string AnswerKey::text() const { return kernel + '\n' + problem + '\n' + dtype + '\n' + device + '\n' + version; }

void ConfigLookup::remember(StoredAnswer stored) {
  const std::string k = stored.key.text() + '\n' + stored.signature;
  auto entry = std::make_shared<const StoredAnswer>(std::move(stored));
  std::unique_lock<std::shared_mutex> lock(mutex_);
  by_key_[k] = std::move(entry);
}

std::shared_ptr<const StoredAnswer> ConfigLookup::exact(const AnswerKey& key, const std::string& signature) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = by_key_.find(key.text() + '\n' + signature);
  return it == by_key_.end() ? nullptr : it->second;
}

std::optional<ConfigLookup::Neighbour> ConfigLookup::nearest(const AnswerKey& key,
                                                             const std::vector<double>& vector) const {
  const std::string wanted = key.text();
  std::optional<Neighbour> best;
  std::shared_lock<std::shared_mutex> lock(mutex_);
  for (const auto& [k, stored] : by_key_) {
    if (stored->key.text() != wanted || stored->vector.size() != vector.size()) continue;
    const double d = signature_distance(stored->vector, vector);
    if (d <= max_distance_ && (!best || d < best->distance)) best = Neighbour{stored, d};
  }
  return best;
}

size_t ConfigLookup::size() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return by_key_.size();
}

}  // namespace ktune
