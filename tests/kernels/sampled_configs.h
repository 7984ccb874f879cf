#pragma once
// The configurations a family's device tests run when its space is too large to run whole:
// the first valid configuration of every combination of its discrete choices (so that every
// kernel template is exercised), then a seeded draw of the rest, the same every run.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/parameter_space.h"

namespace ktune::testing_support {

inline std::vector<Config> sampled_configs(const ParameterSpace& space, const std::vector<std::string>& choices,
                                           size_t draws, uint64_t seed) {
  std::vector<Config> out;
  std::set<std::vector<int64_t>> covered;
  for (const Config& c : space.enumerate()) {
    std::vector<int64_t> key;
    for (const std::string& name : choices) key.push_back(c.at(name));
    if (covered.insert(key).second) out.push_back(c);
  }
  SpaceRng rng(seed);
  std::set<Config> seen(out.begin(), out.end());
  for (const Config& c : space.sample(rng, draws))
    if (seen.insert(c).second) out.push_back(c);
  return out;
}

}  // namespace ktune::testing_support
