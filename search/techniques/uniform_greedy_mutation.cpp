#include "search/techniques/uniform_greedy_mutation.h"

#include <cmath>

namespace ktune {

void UniformGreedyMutation::mutate(const Parameter& p, double& coordinate, Rng& rng) const {
  const int64_t n = p.count();
  if (n < 2) return;
  const int64_t at = std::llround(coordinate * static_cast<double>(n - 1));
  // A different position, uniformly: draw among n - 1 and skip over the current one.
  int64_t to = static_cast<int64_t>(uniform_below(rng, static_cast<uint64_t>(n - 1)));
  if (to >= at) ++to;
  coordinate = static_cast<double>(to) / static_cast<double>(n - 1);
}

}  // namespace ktune
