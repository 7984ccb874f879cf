// The contraction's canonical directions for the model-driven walk (digest-000 §2.9, where the
// walk was tuned on these very kernels): thread-block reshaping (the block size, and the tiled
// schedule's tile), thread coarsening along either direction of a thread's tile, and unrolling
// of the summed loop, in factor-2 steps from a 128-thread block of single outputs, one start a
// schedule (the tiled one's tile the width of a 128-byte line of f64).
#include <functional>
#include <memory>
#include <optional>

#include "kernels/contraction/contraction_family.h"

namespace ktune {

CanonicalMoves ContractionFamily::canonical_moves(const Problem& p) const {
  const auto space = std::make_shared<const ParameterSpace>(this->space(p));
  const auto doubling = [space](const char* parameter) {
    return [space, parameter](const Config& from) -> std::optional<Config> {
      Config c = from;
      c.at(parameter) *= 2;
      if (!space->valid(c)) return std::nullopt;
      return c;
    };
  };
  CanonicalMoves moves;
  for (const int64_t schedule : {0, 1}) {
    const Config start = {{"schedule", schedule}, {"block", 128}, {"coarsen", 1},
                          {"coarsen2", 1},        {"unroll", 1},  {"tile", schedule == 0 ? 1 : 16}};
    if (space->valid(start)) moves.starts.push_back(start);
  }
  moves.directions = {{"block", "reshape", doubling("block")},
                      {"tile", "reshape", doubling("tile")},
                      {"coarsen", "coarsen", doubling("coarsen")},
                      {"coarsen2", "coarsen", doubling("coarsen2")},
                      {"unroll", "unroll", doubling("unroll")}};
  return moves;
}

}  // namespace ktune
