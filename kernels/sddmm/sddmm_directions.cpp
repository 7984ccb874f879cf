// SDDMM's canonical directions for the model-driven walk (digest-000 §2.9): factor-2 steps that
// reshape the group (more lanes share K), coarsen threads (twice the nonzeros a group, or twice
// the K tile a lane holds), widen the vector loads, and coarsen blocks. The schedule is a
// discrete choice the walk does not cross: each has a start of its own.
#include <functional>
#include <optional>
#include <string>

#include "kernels/sddmm/sddmm_config.h"
#include "kernels/sddmm/sddmm_family.h"

namespace ktune {
namespace {

using Step = std::function<std::optional<Config>(const Config&)>;

// A step that doubles `param` (and, for the row and tiled schedules' lanes, halves chunks when it
// can, so that the K tile a group holds stays the same: the same registers over more lanes).
Step doubling(const ParameterSpace& space, std::string param) {
  return [space, param](const Config& from) -> std::optional<Config> {
    Config c = from;
    c.at(param) *= 2;
    if (param == "lanes" && c.at("chunks") > 1) c.at("chunks") /= 2;
    if (!space.valid(c)) return std::nullopt;
    return c;
  };
}

bool is_nonzero(const Config& c) { return c.at("schedule") == static_cast<int64_t>(SddmmSchedule::Nonzero); }

}  // namespace

CanonicalMoves SddmmFamily::canonical_moves(const Problem& p) const {
  const int32_t k = sddmm_k(p);
  const ParameterSpace space = sddmm_space(k);
  const Step more_nonzeros = doubling(space, "coarsen"), longer_tile = doubling(space, "chunks");
  CanonicalMoves moves;
  // The smallest kernel of every schedule: the walk only grows them.
  moves.starts = {sddmm_first_config(SddmmSchedule::Nonzero, k), sddmm_first_config(SddmmSchedule::Row, k),
                  sddmm_first_config(SddmmSchedule::Tiled, k)};
  moves.directions = {
      {"block", "coarsen", doubling(space, "block")},
      {"threads", "coarsen",
       [more_nonzeros, longer_tile](const Config& c) { return is_nonzero(c) ? more_nonzeros(c) : longer_tile(c); }},
      {"lanes", "reshape", doubling(space, "lanes")},
      {"vector", "coarsen", doubling(space, "vec")},
  };
  return moves;
}

}  // namespace ktune
