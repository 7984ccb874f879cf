// SpMV's canonical directions for the model-driven walk (digest-000 §2.9). SAAKE's moves
// are factor-2 steps: reshape the block, coarsen threads, coarsen blocks, unroll. SpMV has
// no unroll knob; its schedule is a discrete choice the walk does not cross except where
// two schedules are one shape (a subwarp of one lane is the row schedule).
#include <optional>

#include "kernels/spmv/spmv_config.h"
#include "kernels/spmv/spmv_family.h"

namespace ktune {
namespace {

constexpr int64_t kRow = static_cast<int64_t>(SpmvSchedule::Row);
constexpr int64_t kSubwarp = static_cast<int64_t>(SpmvSchedule::Subwarp);

std::optional<Config> if_valid(Config c) {
  if (!spmv_space().valid(c)) return std::nullopt;
  return c;
}

bool tiled(const Config& c) {
  const auto s = static_cast<SpmvSchedule>(c.at("schedule"));
  return s == SpmvSchedule::Merge || s == SpmvSchedule::Adaptive || s == SpmvSchedule::AdaptiveHot;
}

bool has_lanes(const Config& c) {
  const auto s = static_cast<SpmvSchedule>(c.at("schedule"));
  return s == SpmvSchedule::Row || s == SpmvSchedule::Subwarp;
}

// Block coarsening: twice the threads per block, so each block covers twice the rows (row,
// subwarp, sell) or twice the tile (merge, adaptive).
std::optional<Config> grow_block(const Config& from) {
  Config c = from;
  c.at("block") *= 2;
  return if_valid(c);
}

// Thread coarsening: each thread takes twice the work. For row and subwarp schedules that is
// half the lanes per row (two lanes become one: the row schedule); for the tiled schedules,
// twice the items per thread. Sell's lane walks a whole row already: it has no such step.
std::optional<Config> coarsen_threads(const Config& from) {
  Config c = from;
  if (tiled(c)) {
    c.at("items_per_thread") *= 2;
  } else {
    if (c.at("lanes") == 1) return std::nullopt;
    c.at("lanes") /= 2;
    if (c.at("lanes") == 1) c.at("schedule") = kRow;
  }
  return if_valid(c);
}

// Block reshaping: the same block as more lanes per row and fewer rows, the inverse of thread
// coarsening for the row-based schedules (one lane becomes a subwarp of two).
std::optional<Config> reshape_lanes(const Config& from) {
  if (!has_lanes(from)) return std::nullopt;
  Config c = from;
  c.at("lanes") *= 2;
  c.at("schedule") = kSubwarp;
  return if_valid(c);
}

Config start(SpmvSchedule schedule, int64_t block, int64_t lanes = 1) {
  return {{"schedule", static_cast<int64_t>(schedule)}, {"block", block}, {"lanes", lanes}, {"items_per_thread", 1}};
}

}  // namespace

CanonicalMoves SpmvFamily::canonical_moves(const Problem&) const {
  CanonicalMoves moves;
  // The smallest kernel of every schedule. Subwarp can also be reached from row by reshaping,
  // but a walk from row that the model sends along block or thread coarsening never gets
  // there, so it has a start of its own (the multi-start keeps the best predicted walk).
  moves.starts = {start(SpmvSchedule::Row, 64), start(SpmvSchedule::Subwarp, 64, 2),
                  start(SpmvSchedule::Merge, 64), start(SpmvSchedule::Adaptive, 128),
                  start(SpmvSchedule::Sell, 64), start(SpmvSchedule::Sell16, 64),
                  start(SpmvSchedule::AdaptiveHot, 128)};
  moves.directions = {{"block", "coarsen", grow_block},
                      {"threads", "coarsen", coarsen_threads},
                      {"lanes", "reshape", reshape_lanes}};
  return moves;
}

}  // namespace ktune
