#include "kernels/spmm/spmm_config.h"

#include <algorithm>

#include "workload/input_error.h"
#include "workload/workload.h"

namespace ktune {

namespace {

const std::vector<std::string> kScheduleNames = {"row_split", "nonzero_split", "heavy_light", "aspt"};

// A lane's runs of vec columns, its sums held in registers: RS-SpMM's coarsening along K, whose
// gains (loads in flight, one nonzero read for several) have long levelled off by this many.
constexpr int64_t kMaxRuns = 8;
// Each K tile reads A again (its indices, values and row pointers).
constexpr int64_t kMaxKTiles = 8;
// aspt stages K tiles of B's rows in shared memory: wider tiles would leave too few slots.
constexpr int64_t kMaxStagedKTile = 128;
constexpr int64_t kStagedBytes = 32 * 1024;
constexpr int64_t kMaxSlots = 256;

bool is(const Config& c, SpmmSchedule s) { return c.at("schedule") == static_cast<int64_t>(s); }

int64_t ceil_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace

int32_t spmm_k(const Problem& p) {
  const auto k = p.params.find("k");
  return k == p.params.end() ? kSpmmDefaultK : k->get<int32_t>();
}

ParameterSpace spmm_space(int32_t k) {
  ParameterSpace space;
  space.params = {
      Parameter::enumeration("schedule", kScheduleNames),
      Parameter::power_of_two("block", 64, 256),
      Parameter::power_of_two("lanes", 4, 32),
      Parameter::power_of_two("vec", 1, 4),
      Parameter::power_of_two("k_tile", 1, kSpmmMaxK),
      Parameter::power_of_two("items", 32, 128),
      Parameter::power_of_two("threshold", 64, 1024),
  };
  const int64_t k_rounded = ceil_power_of_two(k);
  space.constraints = {
      {"vec must divide k = " + std::to_string(k) + " (vector loads need every row of B and C aligned)",
       [k](const Config& c) { return k % c.at("vec") == 0; }},
      {"k_tile must not exceed k = " + std::to_string(k) + " rounded up to a power of two (" +
           std::to_string(k_rounded) + ")",
       [k_rounded](const Config& c) { return c.at("k_tile") <= k_rounded; }},
      {"k_tile * " + std::to_string(kMaxKTiles) + " must reach k = " + std::to_string(k) +
           " (each K tile reads A again)",
       [k](const Config& c) { return c.at("k_tile") * kMaxKTiles >= k; }},
      {"lanes * vec must not exceed k_tile (every lane needs columns), except lanes 4 with vec 1",
       [](const Config& c) { return c.at("lanes") * c.at("vec") <= std::max<int64_t>(c.at("k_tile"), 4); }},
      {"k_tile / (lanes * vec) must be " + std::to_string(kMaxRuns) +
           " or less (a lane holds its runs of C's columns in registers)",
       [](const Config& c) { return c.at("k_tile") <= kMaxRuns * c.at("lanes") * c.at("vec"); }},
      {"items must be 32 unless schedule is nonzero_split (only it walks merge items)",
       [](const Config& c) { return is(c, SpmmSchedule::NonzeroSplit) || c.at("items") == 32; }},
      {"schedule nonzero_split needs items of 32 or 128",
       [](const Config& c) { return c.at("items") == 32 || c.at("items") == 128; }},
      {"threshold must be 64 unless schedule is heavy_light (only it splits heavy rows)",
       [](const Config& c) { return is(c, SpmmSchedule::HeavyLight) || c.at("threshold") == 64; }},
      {"schedule heavy_light needs threshold of 64, 256 or 1024",
       [](const Config& c) {
         const int64_t t = c.at("threshold");
         return t == 64 || t == 256 || t == 1024;
       }},
      {"schedules nonzero_split, heavy_light and aspt need block of 128 or more",
       [](const Config& c) { return is(c, SpmmSchedule::RowSplit) || c.at("block") >= 128; }},
      {"schedule aspt needs k_tile of " + std::to_string(kMaxStagedKTile) +
           " or less (its tiles of B's rows are staged in shared memory)",
       [](const Config& c) { return !is(c, SpmmSchedule::Aspt) || c.at("k_tile") <= kMaxStagedKTile; }},
  };
  return space;
}

SpmmConfig SpmmConfig::from(const Config& config, int32_t k) {
  const std::string why = spmm_space(k).violation(config);
  if (!why.empty()) throw InputError("spmm configuration refused: " + why);
  SpmmConfig c;
  c.schedule = static_cast<SpmmSchedule>(config.at("schedule"));
  c.block = static_cast<int32_t>(config.at("block"));
  c.lanes = static_cast<int32_t>(config.at("lanes"));
  c.vec = static_cast<int32_t>(config.at("vec"));
  c.k_tile = static_cast<int32_t>(config.at("k_tile"));
  c.items = static_cast<int32_t>(config.at("items"));
  c.threshold = static_cast<int32_t>(config.at("threshold"));
  return c;
}

std::string SpmmConfig::schedule_name() const { return kScheduleNames[static_cast<size_t>(schedule)]; }

int32_t SpmmConfig::slots(Dtype dtype) const {
  return static_cast<int32_t>(std::min<int64_t>(kMaxSlots, kStagedBytes / (int64_t{k_tile} * dtype_size(dtype))));
}

int64_t SpmmConfig::blocks_for(int64_t groups) const {
  return std::max<int64_t>(1, (groups + groups_per_block() - 1) / groups_per_block());
}

}  // namespace ktune
