#include "server/config_lookup.h"

#include <cmath>
#include <limits>

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

double problem_distance(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  const nlohmann::json x = nlohmann::json::parse(a, nullptr, false), y = nlohmann::json::parse(b, nullptr, false);
  if (!x.is_object() || !y.is_object() || x.size() != y.size()) return std::numeric_limits<double>::infinity();
  double d = 0;
  for (const auto& [name, value] : x.items()) {
    if (!y.contains(name)) return std::numeric_limits<double>::infinity();
    const nlohmann::json& other = y[name];
    if (value == other) continue;
    if (!value.is_number() || !other.is_number()) return std::numeric_limits<double>::infinity();
    d += std::fabs(std::log2(1 + std::fabs(value.get<double>())) - std::log2(1 + std::fabs(other.get<double>())));
  }
  return d;
}

std::optional<ConfigLookup::Neighbour> ConfigLookup::nearest(const AnswerKey& key,
                                                             const std::vector<double>& vector) const {
  AnswerKey any_problem = key;
  any_problem.problem.clear();
  const std::string wanted = any_problem.text();
  std::optional<Neighbour> best;
  std::shared_lock<std::shared_mutex> lock(mutex_);
  for (const auto& [k, stored] : by_key_) {
    AnswerKey theirs = stored->key;
    theirs.problem.clear();
    if (theirs.text() != wanted || stored->vector.size() != vector.size()) continue;
    const double d = signature_distance(stored->vector, vector) + problem_distance(stored->key.problem, key.problem);
    if (d <= max_distance_ && (!best || d < best->distance)) best = Neighbour{stored, d};
  }
  return best;
}

size_t ConfigLookup::size() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return by_key_.size();
}

}  // namespace ktune
