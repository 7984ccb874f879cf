#include "server/config_lookup.h"

#include "workload/signature.h"

namespace ktune {

std::string ConfigLookup::key(const std::string& kernel, const std::string& dtype, const std::string& device,
                              const std::string& signature) {
  return kernel + '\n' + dtype + '\n' + device + '\n' + signature;
}

void ConfigLookup::remember(StoredAnswer stored) {
  const std::string k = key(stored.kernel, stored.dtype, stored.device, stored.signature);
  auto entry = std::make_shared<const StoredAnswer>(std::move(stored));
  std::unique_lock<std::shared_mutex> lock(mutex_);
  by_key_[k] = std::move(entry);
}

std::shared_ptr<const StoredAnswer> ConfigLookup::exact(const std::string& kernel, const std::string& dtype,
                                                        const std::string& device,
                                                        const std::string& signature) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = by_key_.find(key(kernel, dtype, device, signature));
  return it == by_key_.end() ? nullptr : it->second;
}

std::optional<ConfigLookup::Neighbour> ConfigLookup::nearest(const std::string& kernel, const std::string& dtype,
                                                             const std::string& device,
                                                             const std::vector<double>& vector) const {
  std::optional<Neighbour> best;
  std::shared_lock<std::shared_mutex> lock(mutex_);
  for (const auto& [k, stored] : by_key_) {
    if (stored->kernel != kernel || stored->dtype != dtype || stored->device != device) continue;
    if (stored->vector.size() != vector.size()) continue;
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
