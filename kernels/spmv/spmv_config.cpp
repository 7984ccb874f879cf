#include "kernels/spmv/spmv_config.h"

#include <algorithm>
#include <stdexcept>

#include "workload/input_error.h"

namespace ktune {

namespace {

const std::vector<std::string> kScheduleNames = {"row",  "subwarp", "merge",       "adaptive",
                                                 "sell", "sell16",  "adaptive_hot"};

// Merge and adaptive tiles are staged in shared memory at up to 8 bytes an item: 4096 items
// keep one at 32 KiB, inside the 48 KiB of static shared memory a block may declare.
constexpr int64_t kMaxStagedTile = 4096;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool is(const Config& c, SpmvSchedule s) { return c.at("schedule") == static_cast<int64_t>(s); }

bool adaptive(const Config& c) { return is(c, SpmvSchedule::Adaptive) || is(c, SpmvSchedule::AdaptiveHot); }

bool stages_a_tile(const Config& c) { return is(c, SpmvSchedule::Merge) || adaptive(c); }

}  // namespace

ParameterSpace spmv_space() {
  ParameterSpace space;
  space.params = {
      Parameter::enumeration("schedule", kScheduleNames),
      Parameter::power_of_two("block", 64, 1024),
      Parameter::power_of_two("lanes", 1, 32),
      Parameter::int_range("items_per_thread", 1, 16),
  };
  space.constraints = {
      {"lanes must be 1 unless schedule is subwarp (only subwarp shares a row between threads)",
       [](const Config& c) { return is(c, SpmvSchedule::Subwarp) || c.at("lanes") == 1; }},
      {"schedule subwarp needs lanes of 2 or more (lanes = 1 is the row schedule)",
       [](const Config& c) { return !is(c, SpmvSchedule::Subwarp) || c.at("lanes") >= 2; }},
      {"items_per_thread must be 1 unless schedule is merge, adaptive or adaptive_hot",
       [](const Config& c) { return stages_a_tile(c) || c.at("items_per_thread") == 1; }},
      {"schedule merge needs block of 512 or less",
       [](const Config& c) { return !is(c, SpmvSchedule::Merge) || c.at("block") <= 512; }},
      {"schedules merge, adaptive and adaptive_hot need block * items_per_thread <= " +
           std::to_string(kMaxStagedTile) + " (their tile is staged in shared memory)",
       [](const Config& c) {
         return !stages_a_tile(c) || c.at("block") * c.at("items_per_thread") <= kMaxStagedTile;
       }},
      // The adaptive kernel would run at other sizes too; these keep its share of the space,
      // which CI compiles in full, small.
      {"schedules adaptive and adaptive_hot need block of 128 or more",
       [](const Config& c) { return !adaptive(c) || c.at("block") >= 128; }},
      {"schedules adaptive and adaptive_hot need items_per_thread of 1, 2, 4 or 8",
       [](const Config& c) {
         const int64_t items = c.at("items_per_thread");
         return !adaptive(c) || items == 1 || items == 2 || items == 4 || items == 8;
       }},
  };
  return space;
}

SpmvConfig SpmvConfig::from(const Config& config) {
  const std::string why = spmv_space().violation(config);
  if (!why.empty()) throw InputError("spmv configuration refused: " + why);
  SpmvConfig c;
  c.schedule = static_cast<SpmvSchedule>(config.at("schedule"));
  c.block = static_cast<int32_t>(config.at("block"));
  c.lanes = static_cast<int32_t>(config.at("lanes"));
  c.items_per_thread = static_cast<int32_t>(config.at("items_per_thread"));
  return c;
}

std::string SpmvConfig::schedule_name() const {
  return kScheduleNames[static_cast<size_t>(schedule)];
}

int64_t SpmvConfig::blocks(int32_t rows, int64_t nnz) const {
  if (is_adaptive()) {
    throw std::logic_error("the adaptive grid follows from the row lengths (adaptive_partition)");
  }
  const int64_t blocks = schedule == SpmvSchedule::Merge ? ceil_div(rows + nnz, tile_items())
                                                         : ceil_div(rows, rows_per_block());
  return std::max<int64_t>(blocks, 1);
}

}  // namespace ktune
