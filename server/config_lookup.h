#pragma once
// Answers GET /v1/configs from memory: exact hits by (answer key, signature), then the nearest
// stored workload by feature distance, then the family's default. Loaded from the results
// table at start and kept current as tunes finish, so lookups never touch SQLite.
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

namespace ktune {

// What an answer answers besides its workload: only answers of equal keys may stand in for one
// another. `version` is the family's template hash: an answer of other templates is stale.
struct AnswerKey {
  std::string kernel, problem, dtype, device, version;

  std::string text() const;
  bool operator==(const AnswerKey& o) const { return text() == o.text(); }
};

// How far apart two canonical problems of one family are: the sum over numeric parameters of
// the distance of their log2 (sizes matter by ratio); infinite when any other parameter differs.
double problem_distance(const std::string& a, const std::string& b);

struct StoredAnswer {
  AnswerKey key;
  std::string signature;
  std::vector<double> vector;  // the workload's features, for nearest-neighbour reuse
  nlohmann::json answer;
};

class ConfigLookup {
 public:
  explicit ConfigLookup(double max_distance) : max_distance_(max_distance) {}

  void remember(StoredAnswer stored);
  // The exact answer, or empty.
  std::shared_ptr<const StoredAnswer> exact(const AnswerKey& key, const std::string& signature) const;
  // The closest stored answer within max_distance under the same key but for the problem:
  // the distance adds the workloads' feature distance and the problems' (problem_distance),
  // so a nearby problem (SpMM with k = 64 for k = 128) may answer.
  struct Neighbour {
    std::shared_ptr<const StoredAnswer> stored;
    double distance = 0;
  };
  std::optional<Neighbour> nearest(const AnswerKey& key, const std::vector<double>& vector) const;
  size_t size() const;

 private:
  double max_distance_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<const StoredAnswer>> by_key_;  // key text + signature
};

}  // namespace ktune
