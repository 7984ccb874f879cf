// PageRank's canonical directions for the model-driven walk (digest-000 §2.9): factor-2 steps
// of the block, of the vertices per thread group, and of the lanes per vertex (from a thread
// per vertex to a warp). The direction (pull, push or pull over edges) is a discrete choice the
// walk does not cross: one start each.
#include <optional>

#include "kernels/pagerank/pagerank_config.h"
#include "kernels/pagerank/pagerank_family.h"

namespace ktune {
namespace {

std::optional<Config> times_two(const Config& from, const char* parameter) {
  Config c = from;
  c.at(parameter) *= 2;
  if (!pagerank_space().valid(c)) return std::nullopt;
  return c;
}

}  // namespace

CanonicalMoves PagerankFamily::canonical_moves(const Problem&) const {
  CanonicalMoves moves;
  for (PagerankDirection direction : {PagerankDirection::Pull, PagerankDirection::Push, PagerankDirection::PullEdges})
    moves.starts.push_back({{"direction", static_cast<int64_t>(direction)}, {"block", 64}, {"lanes", 1}, {"items", 1}});
  moves.directions = {{"block", "coarsen", [](const Config& c) { return times_two(c, "block"); }},
                      {"items", "coarsen", [](const Config& c) { return times_two(c, "items"); }},
                      {"lanes", "reshape", [](const Config& c) { return times_two(c, "lanes"); }}};
  return moves;
}

}  // namespace ktune
