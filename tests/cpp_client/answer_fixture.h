#pragma once
// An answer as ktuned writes it (server/tune_answer.cpp) for one configuration, without a
// daemon: what TunedKernel::with_answer takes in the tests.
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/kernel_family.h"

namespace ktune::testing {

inline nlohmann::json answer_for(const KernelFamily& family, const Problem& problem, const Config& config) {
  const KernelSource source = family.source(problem, config);
  nlohmann::json options = source.options;
  options.push_back("--gpu-architecture=" + compile_arch(source, "sm_90"));
  return {{"kernel", family.name()},
          {"dtype", to_string(problem.precision)},
          {"problem", problem.params},
          {"parameters", family.space(problem).to_json(config)},
          {"source_code", source.code},
          {"entry", source.entries},
          {"compile_options", options},
          {"match", "exact"},
          {"use", "ktune"},
          {"provenance", {{"kernel_version", family_version(family)}}}};
}

// The first valid configuration of each value of the space's "schedule" parameter.
inline std::vector<Config> one_per_schedule(const KernelFamily& family, const Problem& problem) {
  const ParameterSpace space = family.space(problem);
  std::vector<Config> picked;
  std::set<std::string> seen;
  for (const Config& c : space.enumerate())
    if (seen.insert(space.to_json(c).value("schedule", nlohmann::json()).dump()).second) picked.push_back(c);
  return picked;
}

}  // namespace ktune::testing
