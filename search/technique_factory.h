#pragma once
// The one place the tuning loop gets its technique from: the AUC-bandit ensemble
// (search/techniques/ensemble.h), seeded with the SAAKE walk's pick, then the model's top k,
// then the bandit over the generic techniques with the model as one more arm. Tests pass
// their own technique to the loop instead.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

struct TechniqueContext {
  // Valid configurations, best first (empty when the space is too large to rank): the tuner
  // puts the ones the emulator predicted first, by emulated time, then the rest in the first
  // cost model's order.
  std::vector<Config> model_ranked;
  // The first model's prediction for any configuration; nothing when it cannot run. Ranks
  // what model_ranked does not hold.
  std::function<std::optional<double>(const Config&)> predict_us;
  std::optional<Config> seed;  // the SAAKE walk's pick
  size_t model_first = 8;      // proposals from the model's ranking before the bandit starts
};

// The ensemble's model proposes model_ranked in its order (so the emulator's and the first
// model's times, on different scales, never meet), and predict_us ranks the rest once it is
// spent. Deterministic: every random choice comes from the loop's Rng.
std::unique_ptr<Technique> make_search_technique(const TechniqueContext& context);

}  // namespace ktune
