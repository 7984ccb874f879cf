#include "kernels/cc/cc_config.h"

#include "workload/input_error.h"

namespace ktune {

namespace {

bool is(const Config& c, const char* name, CcSchedule s) { return c.at(name) == static_cast<int64_t>(s); }

}  // namespace

ParameterSpace cc_space() {
  ParameterSpace space;
  space.params = {
      Parameter::enumeration("algorithm", {"label_propagation", "hooking", "union_find"}),
      Parameter::enumeration("schedule", {"vertex", "edge"}),
      Parameter::power_of_two("block", 64, 1024),
      Parameter::power_of_two("lanes", 1, 32),
      Parameter::power_of_two("items", 1, 4),
      Parameter::int_range("jumps", 0, 2),
  };
  space.constraints = {
      {"lanes must be 1 unless schedule is vertex (an edge has one thread)",
       [](const Config& c) { return is(c, "schedule", CcSchedule::Vertex) || c.at("lanes") == 1; }},
      {"algorithm hooking needs jumps of 1 or more (a hook onto a non-root progresses only by jumping)",
       [](const Config& c) {
         return c.at("algorithm") != static_cast<int64_t>(CcAlgorithm::Hooking) || c.at("jumps") >= 1;
       }},
      {"algorithm union_find takes jumps 0 (its last pass takes every vertex to its root)",
       [](const Config& c) {
         return c.at("algorithm") != static_cast<int64_t>(CcAlgorithm::UnionFind) || c.at("jumps") == 0;
       }},
  };
  return space;
}

CcConfig CcConfig::from(const Config& config) {
  const std::string why = cc_space().violation(config);
  if (!why.empty()) throw InputError("cc configuration refused: " + why);
  CcConfig c;
  c.algorithm = static_cast<CcAlgorithm>(config.at("algorithm"));
  c.schedule = static_cast<CcSchedule>(config.at("schedule"));
  c.block = static_cast<int32_t>(config.at("block"));
  c.lanes = static_cast<int32_t>(config.at("lanes"));
  c.items = static_cast<int32_t>(config.at("items"));
  c.jumps = static_cast<int32_t>(config.at("jumps"));
  return c;
}

}  // namespace ktune
