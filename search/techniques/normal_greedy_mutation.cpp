#include "search/techniques/normal_greedy_mutation.h"

#include <algorithm>
#include <cmath>

namespace ktune {

void NormalGreedyMutation::mutate(const Parameter& p, double& coordinate, Rng& rng) const {
  const int64_t n = p.count();
  if (n < 2) return;
  const double span = static_cast<double>(n - 1);
  const int64_t at = std::llround(coordinate * span);
  int64_t to = at;
  if (p.kind == ParamKind::Enum) {
    to = static_cast<int64_t>(uniform_below(rng, static_cast<uint64_t>(n - 1)));
    if (to >= at) ++to;
  } else {
    const double step = standard_normal(rng) * sigma_ * span;
    // A step that rounds to nothing would re-propose the parent: move one position instead.
    const int64_t moved = std::llround(step);
    to = std::clamp<int64_t>(at + (moved != 0 ? moved : (step < 0 ? -1 : 1)), 0, n - 1);
    if (to == at) to = at == 0 ? 1 : at - 1;
  }
  coordinate = static_cast<double>(to) / span;
}

}  // namespace ktune
