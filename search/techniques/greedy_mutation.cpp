#include "search/techniques/greedy_mutation.h"

#include <numeric>

namespace ktune {

std::optional<Config> GreedyMutation::propose(const ResultsStore& results, Rng& rng) {
  const ParameterSpace& space = results.space();
  const UnitPoint parent = to_unit(space, best_or_random(results, rng));
  std::vector<size_t> order(parent.size());
  std::iota(order.begin(), order.end(), 0);
  for (size_t t = 0; t < kTries; ++t) {
    UnitPoint child = parent;
    shuffle_in_place(order, rng);
    for (size_t j = 0; j < order.size(); ++j) {
      // The first parameter in the shuffled order always mutates (must_mutate_count = 1).
      if (j == 0 || uniform01(rng) < mutation_rate_) mutate(space.params[order[j]], child[order[j]], rng);
    }
    Config c = from_unit(space, child);
    if (space.valid(c) && !results.seen(c)) return c;
  }
  return std::nullopt;
}

}  // namespace ktune
