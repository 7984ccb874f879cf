#pragma once
// The shared core of the search (issue 5): one results store that every technique reads, and
// the interface each technique implements. A technique proposes configurations; the loop
// measures them and records every result in the store, which all techniques then see.
// Determinism: given the same seed and the same sequence of results, a technique proposes the
// same configurations, so a restarted tune replays its stored measurements instead of
// re-measuring (the search state is the measurement history plus the seed).
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kernels/parameter_space.h"

namespace ktune {

using Rng = SpaceRng;

struct Observation {
  Config config;
  std::string key;        // ParameterSpace::canonical
  double time_us = std::numeric_limits<double>::infinity();  // infinity when it failed
  std::string technique;  // who proposed it ("seed", "random", ...)
  bool ok() const { return time_us < std::numeric_limits<double>::infinity(); }
};

class ResultsStore {
 public:
  // Spaces of at most this many nominal points are enumerated once, here, so that techniques
  // can pick among the unmeasured configurations exactly instead of by rejection.
  static constexpr double kEnumerateLimit = 1e5;

  explicit ResultsStore(const ParameterSpace& space);
  const ParameterSpace& space() const { return *space_; }

  // Records one result; a configuration recorded twice keeps its first result (returns false).
  bool record(const Config& config, double time_us, const std::string& technique);
  bool seen(const Config& config) const;
  bool seen_key(const std::string& key) const { return by_key_.count(key) > 0; }
  const Observation* find(const Config& config) const;
  std::optional<Observation> best() const;  // fastest ok result
  const std::vector<Observation>& history() const { return history_; }
  // Every valid configuration when the space is small enough to enumerate, else nullptr.
  const std::vector<Config>* valid_configs() const { return small_ ? &valid_ : nullptr; }
  const std::vector<std::string>& valid_keys() const { return valid_keys_; }  // canonical, same order

 private:
  const ParameterSpace* space_;
  std::vector<Observation> history_;
  std::unordered_map<std::string, size_t> by_key_;
  bool small_ = false;
  std::vector<Config> valid_;
  std::vector<std::string> valid_keys_;
};

class Technique {
 public:
  virtual ~Technique() = default;
  virtual std::string name() const = 0;
  // The next configuration to measure (valid under the space's constraints and not yet in
  // `results`), or nullopt when the technique has nothing new to offer right now.
  virtual std::optional<Config> propose(const ResultsStore& results, Rng& rng) = 0;
  // Every recorded result, whoever proposed it, in recording order.
  virtual void observe(const Observation&) {}
  // Who made the last proposal: the label to record it under (a meta-technique names the
  // technique it delegated to).
  virtual std::string proposer() const { return name(); }
};

// Portable random draws (the std distributions differ between standard libraries, and a
// resumed tune must replay the same proposals wherever it runs).
double uniform01(Rng& rng);        // [0, 1)
double standard_normal(Rng& rng);  // Box-Muller
template <typename T>
void shuffle_in_place(std::vector<T>& items, Rng& rng) {
  for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[uniform_below(rng, i)]);
}

// A uniformly drawn valid configuration not yet in `results`: exact over the enumerated
// configurations of a small space, by rejection (at most `max_draws`) in a large one.
std::optional<Config> random_unseen(const ResultsStore& results, Rng& rng,
                                    size_t max_draws = 1000);
// The best ok configuration so far, or a random valid one before any.
Config best_or_random(const ResultsStore& results, Rng& rng);

}  // namespace ktune
