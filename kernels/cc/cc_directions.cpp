// Connected components' canonical directions for the model-driven walk (digest-000 §2.9):
// factor-2 steps of the block, of the work per thread, of the lanes per vertex, and one more
// pointer-jumping round per iteration (more work per iteration for fewer iterations). The
// algorithm and the schedule are discrete choices the walk does not cross: one start each.
#include <optional>

#include "kernels/cc/cc_config.h"
#include "kernels/cc/cc_family.h"

namespace ktune {
namespace {

std::optional<Config> if_valid(Config c) {
  if (!cc_space().valid(c)) return std::nullopt;
  return c;
}

std::optional<Config> times_two(const Config& from, const char* parameter) {
  Config c = from;
  c.at(parameter) *= 2;
  return if_valid(c);
}

std::optional<Config> one_more_jump(const Config& from) {
  Config c = from;
  c.at("jumps") += 1;
  return if_valid(c);
}

Config start(CcAlgorithm algorithm, CcSchedule schedule) {
  return {{"algorithm", static_cast<int64_t>(algorithm)},
          {"schedule", static_cast<int64_t>(schedule)},
          {"block", 64},
          {"lanes", 1},
          {"items", 1},
          {"jumps", algorithm == CcAlgorithm::Hooking ? 1 : 0}};
}

}  // namespace

CanonicalMoves CcFamily::canonical_moves(const Problem&) const {
  CanonicalMoves moves;
  for (CcAlgorithm algorithm : {CcAlgorithm::LabelPropagation, CcAlgorithm::Hooking, CcAlgorithm::UnionFind})
    for (CcSchedule schedule : {CcSchedule::Vertex, CcSchedule::Edge}) moves.starts.push_back(start(algorithm, schedule));
  moves.directions = {{"block", "coarsen", [](const Config& c) { return times_two(c, "block"); }},
                      {"items", "coarsen", [](const Config& c) { return times_two(c, "items"); }},
                      {"lanes", "reshape", [](const Config& c) { return times_two(c, "lanes"); }},
                      {"jumps", "coarsen", one_more_jump}};
  return moves;
}

}  // namespace ktune
