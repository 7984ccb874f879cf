#include "kernels/sssp/sssp_config.h"

#include "kernels/graph/expand_tile.h"
#include "workload/input_error.h"

namespace ktune {

namespace {
const std::vector<std::string> kAlgorithmNames = {"bellman_ford", "delta_stepping"};
const std::vector<std::string> kBalanceNames = {"thread", "warp", "block", "segment", "tile"};
}  // namespace

ParameterSpace sssp_space() {
  ParameterSpace space;
  space.params = {
      Parameter::enumeration("algorithm", kAlgorithmNames),
      Parameter::enumeration("schedule", kBalanceNames),
      Parameter::power_of_two("block", 64, 1024),
      Parameter::power_of_two("coarsen", 1, 8),
      Parameter::power_of_two("delta", 1, 256),
      Parameter::power_of_two("batch", 1, 8),
  };
  space.constraints = {
      {"delta must be 1 unless algorithm is delta_stepping (only it has buckets)",
       [](const Config& c) {
         return c.at("algorithm") == static_cast<int64_t>(SsspAlgorithm::DeltaStepping) || c.at("delta") == 1;
       }},
      {"batch must be 1 unless schedule is segment or tile (only they share out edges)",
       [](const Config& c) {
         return c.at("schedule") == static_cast<int64_t>(SsspBalance::Segment) ||
                c.at("schedule") == static_cast<int64_t>(SsspBalance::Tile) || c.at("batch") == 1;
       }},
      {"schedule segment and tile need block * coarsen <= " + std::to_string(kMaxStagedExpandItems) +
           " (their tile is staged in shared memory)",
       [](const Config& c) {
         const bool flat = c.at("schedule") == static_cast<int64_t>(SsspBalance::Segment) ||
                           c.at("schedule") == static_cast<int64_t>(SsspBalance::Tile);
         return !flat || c.at("block") * c.at("coarsen") <= kMaxStagedExpandItems;
       }},
  };
  return space;
}

SsspConfig SsspConfig::from(const Config& config) {
  const std::string why = sssp_space().violation(config);
  if (!why.empty()) throw InputError("sssp configuration refused: " + why);
  SsspConfig c;
  c.algorithm = static_cast<SsspAlgorithm>(config.at("algorithm"));
  c.balance = static_cast<SsspBalance>(config.at("schedule"));
  c.block = static_cast<int32_t>(config.at("block"));
  c.coarsen = static_cast<int32_t>(config.at("coarsen"));
  c.delta = static_cast<int32_t>(config.at("delta"));
  c.batch = static_cast<int32_t>(config.at("batch"));
  return c;
}

int64_t SsspConfig::tile_items() const { return expand_tile_items(static_cast<int>(balance), block, coarsen); }

}  // namespace ktune
