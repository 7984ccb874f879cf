// SpMM's canonical directions for the model-driven walk (digest-000 §2.9): factor-2 steps that
// reshape the block, coarsen threads or blocks, or widen the vector loads. The schedule is a discrete choice the walk
// does not cross (nor heavy_light's threshold or the merge items, host-side choices of a schedule).
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include "kernels/spmm/spmm_config.h"
#include "kernels/spmm/spmm_family.h"

namespace ktune {
namespace {

using Step = std::function<std::optional<Config>(const Config&)>;

// A factor-2 change of one parameter, when the result is in `space`.
Step scale(std::shared_ptr<const ParameterSpace> space, const char* parameter, bool grow) {
  return [space, parameter, grow](const Config& from) -> std::optional<Config> {
    Config c = from;
    int64_t& v = c.at(parameter);
    v = grow ? v * 2 : v / 2;
    if (v < 1 || !space->valid(c)) return std::nullopt;
    return c;
  };
}

// The smallest kernel of a schedule on this K: the smallest block, elements one at a time over
// a K tile of 32 columns (a warp per row), or narrower for a smaller K, or as wide as 8 tiles
// covering a larger one need.
Config start(SpmmSchedule schedule, int32_t k) {
  int64_t k_tile = 1;
  while (k_tile < std::min(k, 32) || k_tile * 8 < k) k_tile *= 2;
  return {{"schedule", static_cast<int64_t>(schedule)},
          {"block", schedule == SpmmSchedule::RowSplit ? 64 : 128},
          {"lanes", std::clamp<int64_t>(k_tile, 4, 32)},
          {"vec", 1},
          {"k_tile", k_tile},
          {"items", 32},
          {"threshold", 64}};
}

}  // namespace

CanonicalMoves SpmmFamily::canonical_moves(const Problem& p) const {
  const int32_t k = spmm_k(p);
  const auto space = std::make_shared<const ParameterSpace>(spmm_space(k));
  CanonicalMoves moves;
  moves.starts = {start(SpmmSchedule::RowSplit, k), start(SpmmSchedule::NonzeroSplit, k),
                  start(SpmmSchedule::HeavyLight, k), start(SpmmSchedule::Aspt, k)};
  // Block coarsening: twice the groups a block. Thread coarsening: each lane twice the columns,
  // of a twice wider K tile (half the tiles along y). Unrolling: loads twice as wide, half the
  // runs a lane. Reshaping: half the lanes a group, so twice the groups (rows) a warp, each lane
  // twice the columns of the same tile.
  moves.directions = {{"block", "coarsen", scale(space, "block", true)},
                      {"k_tile", "coarsen", scale(space, "k_tile", true)},
                      {"vec", "unroll", scale(space, "vec", true)},
                      {"lanes", "reshape", scale(space, "lanes", false)}};
  return moves;
}

}  // namespace ktune
