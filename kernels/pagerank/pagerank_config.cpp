#include "kernels/pagerank/pagerank_config.h"

#include "workload/input_error.h"

namespace ktune {

ParameterSpace pagerank_space() {
  ParameterSpace space;
  space.params = {
      Parameter::enumeration("direction", {"pull", "push", "pull_edges"}),
      Parameter::power_of_two("block", 64, 1024),
      Parameter::power_of_two("lanes", 1, 32),
      Parameter::power_of_two("items", 1, 4),
  };
  space.constraints = {
      {"lanes must be 1 for pull_edges (a thread per edge)",
       [](const Config& c) {
         return c.at("direction") != static_cast<int64_t>(PagerankDirection::PullEdges) || c.at("lanes") == 1;
       }},
  };
  return space;
}

PagerankConfig PagerankConfig::from(const Config& config) {
  const std::string why = pagerank_space().violation(config);
  if (!why.empty()) throw InputError("pagerank configuration refused: " + why);
  PagerankConfig c;
  c.direction = static_cast<PagerankDirection>(config.at("direction"));
  c.block = static_cast<int32_t>(config.at("block"));
  c.lanes = static_cast<int32_t>(config.at("lanes"));
  c.items = static_cast<int32_t>(config.at("items"));
  return c;
}

}  // namespace ktune
