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
#include <vector>

#include "kernels/parameter_space.h"

namespace ktune {

using Rng = std::mt19937_64;

struct Observation {
  Config config;
  std::string key;        // ParameterSpace::canonical
  double time_us = std::numeric_limits<double>::infinity();  // infinity when it failed
  std::string technique;  // who proposed it ("seed", "random", ...)
  bool ok() const { return time_us < std::numeric_limits<double>::infinity(); }
};

class ResultsStore {
 public:
  explicit ResultsStore(const ParameterSpace& space) : space_(&space) {}
  const ParameterSpace& space() const { return *space_; }

  // Records one result; a configuration recorded twice keeps its first result.
  void record(const Config& config, double time_us, const std::string& technique);
  bool seen(const Config& config) const;
  const Observation* find(const Config& config) const;
  std::optional<Observation> best() const;  // fastest ok result
  const std::vector<Observation>& history() const { return history_; }

 private:
  const ParameterSpace* space_;
  std::vector<Observation> history_;
  std::unordered_map<std::string, size_t> by_key_;
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
};

}  // namespace ktune
