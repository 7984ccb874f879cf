#include "search/model_order_technique.h"

namespace ktune {

std::optional<Config> ModelOrderTechnique::propose(const ResultsStore& results, Rng&) {
  // A proposal still in flight is not in `results` yet; the loop asks again for another, so
  // the cursor moves past whatever it hands out.
  while (next_ < ranked_.size()) {
    const Config& c = ranked_[next_++];
    if (!results.seen(c)) return c;
  }
  return std::nullopt;
}

}  // namespace ktune
