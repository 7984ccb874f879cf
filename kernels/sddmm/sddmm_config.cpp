#include "kernels/sddmm/sddmm_config.h"

#include <algorithm>
#include <stdexcept>

#include "workload/input_error.h"
#include "workload/workload.h"

namespace ktune {

namespace {

const std::vector<std::string> kScheduleNames = {"nonzero", "row", "tiled"};

// A pass over a row re-reads its columns and adds into c again: more than this many passes
// over K is never the better shape.
constexpr int64_t kMaxPasses = 8;

// The tiled schedule's staged B tile: ASpT's 32 KiB a block (digest-000 §5.6), inside the 48 KiB
// of static shared memory a block may declare. More slots than kMaxSlots, which a small K tile
// would allow, are rarely filled by one panel's dense columns.
constexpr int64_t kStagedBytes = 32 * 1024;
constexpr int32_t kMaxSlots = 256;

bool is(const Config& c, SddmmSchedule s) { return c.at("schedule") == static_cast<int64_t>(s); }

bool holds_a_row(const Config& c) { return is(c, SddmmSchedule::Row) || is(c, SddmmSchedule::Tiled); }

int64_t k_tile(const Config& c) { return c.at("lanes") * c.at("vec") * c.at("chunks"); }

}  // namespace

int32_t sddmm_k(const Problem& p) {
  const auto k = p.params.find("k");
  return k == p.params.end() ? kSddmmDefaultK : k->get<int32_t>();
}

ParameterSpace sddmm_space(int32_t k) {
  ParameterSpace space;
  space.params = {
      Parameter::enumeration("schedule", kScheduleNames),
      Parameter::power_of_two("block", 128, 256),
      Parameter::power_of_two("lanes", 4, 32),
      Parameter::power_of_two("vec", 1, 4),
      Parameter::power_of_two("coarsen", 1, 4),
      Parameter::power_of_two("chunks", 1, 4),
  };
  const int64_t twice_k = 2 * int64_t{k};
  space.constraints = {
      {"coarsen must be 1 unless schedule is nonzero (only it gives a group several nonzeros)",
       [](const Config& c) { return is(c, SddmmSchedule::Nonzero) || c.at("coarsen") == 1; }},
      {"chunks must be 1 unless schedule is row or tiled (only they hold A's row in registers)",
       [](const Config& c) { return holds_a_row(c) || c.at("chunks") == 1; }},
      {"vec must divide k = " + std::to_string(k) + " (vector loads need every row of A and B aligned)",
       [k](const Config& c) { return k % c.at("vec") == 0; }},
      {"lanes * vec must be under 2k (more leaves most lanes idle), except lanes 4 with vec 1",
       [twice_k](const Config& c) {
         return c.at("lanes") * c.at("vec") < twice_k || (c.at("lanes") == 4 && c.at("vec") == 1);
       }},
      {"chunks above 1 need lanes * vec * chunks under 2k (a larger K tile holds nothing more)",
       [twice_k](const Config& c) { return c.at("chunks") == 1 || k_tile(c) < twice_k; }},
      {"schedules row and tiled need lanes * vec * chunks * " + std::to_string(kMaxPasses) +
           " >= k (at most " + std::to_string(kMaxPasses) + " passes over K)",
       [k](const Config& c) { return !holds_a_row(c) || k_tile(c) * kMaxPasses >= k; }},
      {"schedule tiled needs lanes * vec * chunks <= " + std::to_string(kSddmmMaxTiledKTile) +
           " (its shared-memory slots hold one K tile of a column each)",
       [](const Config& c) { return !is(c, SddmmSchedule::Tiled) || k_tile(c) <= kSddmmMaxTiledKTile; }},
  };
  return space;
}

Config sddmm_first_config(SddmmSchedule schedule, int32_t k) {
  for (const Config& c : sddmm_space(k).enumerate())
    if (is(c, schedule)) return c;
  throw std::logic_error("the sddmm space has no configuration of schedule " + kScheduleNames[static_cast<size_t>(schedule)]);
}

SddmmConfig SddmmConfig::from(const Config& config, int32_t k) {
  const std::string why = sddmm_space(k).violation(config);
  if (!why.empty()) throw InputError("sddmm configuration refused: " + why);
  SddmmConfig c;
  c.schedule = static_cast<SddmmSchedule>(config.at("schedule"));
  c.block = static_cast<int32_t>(config.at("block"));
  c.lanes = static_cast<int32_t>(config.at("lanes"));
  c.vec = static_cast<int32_t>(config.at("vec"));
  c.coarsen = static_cast<int32_t>(config.at("coarsen"));
  c.chunks = static_cast<int32_t>(config.at("chunks"));
  return c;
}

std::string SddmmConfig::schedule_name() const { return kScheduleNames[static_cast<size_t>(schedule)]; }

int32_t SddmmConfig::slots(Dtype dtype) const {
  return static_cast<int32_t>(std::min<int64_t>(kMaxSlots, kStagedBytes / (int64_t{k_tile()} * dtype_size(dtype))));
}

int64_t SddmmConfig::blocks(int32_t rows, int64_t nnz) const {
  const int64_t per_block = schedule == SddmmSchedule::Nonzero ? int64_t{groups_per_block()} * coarsen : groups_per_block();
  const int64_t work = schedule == SddmmSchedule::Nonzero ? nnz : rows;
  return std::max<int64_t>(1, (work + per_block - 1) / per_block);
}

}  // namespace ktune
