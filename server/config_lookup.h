#pragma once
// Answers GET /v1/configs from memory: exact hits by (kernel, dtype, device, signature), then
// the nearest stored workload by feature distance, then the family's default. Loaded from the
// results table at start and kept current as tunes finish, so lookups never touch SQLite.
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

namespace ktune {

struct StoredAnswer {
  std::string kernel, dtype, device, signature;
  std::vector<double> vector;  // the workload's features, for nearest-neighbour reuse
  nlohmann::json answer;
};

class ConfigLookup {
 public:
  explicit ConfigLookup(double max_distance) : max_distance_(max_distance) {}

  void remember(StoredAnswer stored);
  // The exact answer, or empty.
  std::shared_ptr<const StoredAnswer> exact(const std::string& kernel, const std::string& dtype,
                                            const std::string& device, const std::string& signature) const;
  // The closest stored answer within max_distance for the same kernel, dtype and device.
  struct Neighbour {
    std::shared_ptr<const StoredAnswer> stored;
    double distance = 0;
  };
  std::optional<Neighbour> nearest(const std::string& kernel, const std::string& dtype, const std::string& device,
                                   const std::vector<double>& vector) const;
  size_t size() const;

 private:
  static std::string key(const std::string& kernel, const std::string& dtype, const std::string& device,
                         const std::string& signature);
  double max_distance_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<const StoredAnswer>> by_key_;
};

}  // namespace ktune
