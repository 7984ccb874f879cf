// BFS's canonical directions for the model-driven walk (digest-000 §2.9): factor-2 steps of the
// block and of coarsening (vertices a thread, warp or block takes). Frontier, direction and
// schedule are discrete choices the walk does not cross: each start is one of them.
#include <optional>

#include "kernels/bfs/bfs_config.h"
#include "kernels/bfs/bfs_family.h"

namespace ktune {
namespace {

std::optional<Config> doubled(const Config& from, const char* param) {
  Config c = from;
  c.at(param) *= 2;
  if (!bfs_space().valid(c)) return std::nullopt;
  return c;
}

Config start(BfsFrontier frontier, BfsDirection direction, BfsBalance balance, int64_t alpha = 2, int64_t beta = 2) {
  return {{"frontier", static_cast<int64_t>(frontier)},
          {"direction", static_cast<int64_t>(direction)},
          {"schedule", static_cast<int64_t>(balance)},
          {"block", 64},
          {"coarsen", 1},
          {"dense_shift", 2},
          {"alpha", alpha},
          {"beta", beta}};
}

}  // namespace

CanonicalMoves BfsFamily::canonical_moves(const Problem&) const {
  CanonicalMoves moves;
  // A push over the queue in each schedule that differs most on skewed degrees, and Beamer's
  // direction-optimising search at his published alpha and beta (about 15 and 18).
  moves.starts = {start(BfsFrontier::Queue, BfsDirection::Push, BfsBalance::Thread),
                  start(BfsFrontier::Queue, BfsDirection::Push, BfsBalance::Warp),
                  start(BfsFrontier::Queue, BfsDirection::Push, BfsBalance::Segment),
                  start(BfsFrontier::Queue, BfsDirection::Optimising, BfsBalance::Warp, 16, 16)};
  moves.directions = {{"block", "coarsen", [](const Config& c) { return doubled(c, "block"); }},
                      {"vertices", "coarsen", [](const Config& c) { return doubled(c, "coarsen"); }}};
  return moves;
}

}  // namespace ktune
