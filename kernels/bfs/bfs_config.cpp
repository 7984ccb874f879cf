#include "kernels/bfs/bfs_config.h"

#include "kernels/graph/expand_tile.h"
#include "workload/input_error.h"

namespace ktune {

namespace {

const std::vector<std::string> kFrontierNames = {"queue", "bitmap", "hybrid"};
const std::vector<std::string> kDirectionNames = {"push", "pull", "optimising"};
const std::vector<std::string> kBalanceNames = {"thread", "warp", "block", "segment", "tile"};

// The flat schedules stage three ints per item of a block's tile in shared memory: 2048 items
// keep it at 24 KiB, inside the 48 KiB of static shared memory a block may declare.

bool is(const Config& c, const char* param, int64_t choice) { return c.at(param) == choice; }
bool optimising(const Config& c) { return is(c, "direction", static_cast<int64_t>(BfsDirection::Optimising)); }
bool hybrid(const Config& c) { return is(c, "frontier", static_cast<int64_t>(BfsFrontier::Hybrid)); }
bool flat(const Config& c) {
  return is(c, "schedule", static_cast<int64_t>(BfsBalance::Segment)) ||
         is(c, "schedule", static_cast<int64_t>(BfsBalance::Tile));
}

}  // namespace

ParameterSpace bfs_space() {
  ParameterSpace space;
  space.params = {
      Parameter::enumeration("frontier", kFrontierNames),
      Parameter::enumeration("direction", kDirectionNames),
      Parameter::enumeration("schedule", kBalanceNames),
      Parameter::power_of_two("block", 64, 1024),
      Parameter::power_of_two("coarsen", 1, 8),
      Parameter::int_range("dense_shift", 2, 10, 2),
      Parameter::power_of_two("alpha", 2, 64),
      Parameter::power_of_two("beta", 2, 128),
  };
  space.constraints = {
      {"direction pull needs frontier bitmap (a pull reads the frontier as bits; queue and hybrid describe push "
       "levels)",
       [](const Config& c) {
         return !is(c, "direction", static_cast<int64_t>(BfsDirection::Pull)) ||
                is(c, "frontier", static_cast<int64_t>(BfsFrontier::Bitmap));
       }},
      {"dense_shift must be 2 unless frontier is hybrid (only the hybrid switches on the frontier's size)",
       [](const Config& c) { return hybrid(c) || c.at("dense_shift") == 2; }},
      {"alpha and beta must be 2 unless direction is optimising (only it switches direction)",
       [](const Config& c) { return optimising(c) || (c.at("alpha") == 2 && c.at("beta") == 2); }},
      {"schedule segment and tile need block * coarsen <= " + std::to_string(kMaxStagedExpandItems) +
           " (their tile is staged in shared memory)",
       [](const Config& c) { return !flat(c) || c.at("block") * c.at("coarsen") <= kMaxStagedExpandItems; }},
  };
  return space;
}

BfsConfig BfsConfig::from(const Config& config) {
  const std::string why = bfs_space().violation(config);
  if (!why.empty()) throw InputError("bfs configuration refused: " + why);
  BfsConfig c;
  c.frontier = static_cast<BfsFrontier>(config.at("frontier"));
  c.direction = static_cast<BfsDirection>(config.at("direction"));
  c.balance = static_cast<BfsBalance>(config.at("schedule"));
  c.block = static_cast<int32_t>(config.at("block"));
  c.coarsen = static_cast<int32_t>(config.at("coarsen"));
  c.dense_shift = static_cast<int32_t>(config.at("dense_shift"));
  c.alpha = static_cast<int32_t>(config.at("alpha"));
  c.beta = static_cast<int32_t>(config.at("beta"));
  return c;
}

std::string BfsConfig::balance_name() const { return kBalanceNames[static_cast<size_t>(balance)]; }

int64_t BfsConfig::tile_items() const {
  return expand_tile_items(static_cast<int>(balance), block, coarsen);
}

}  // namespace ktune
