#include "search/technique_factory.h"

#include <limits>

#include "search/techniques/ensemble.h"

namespace ktune {

std::unique_ptr<Technique> make_search_technique(const TechniqueContext& context) {
  EnsembleOptions options;
  options.seed = context.seed;
  options.model_first = context.model_first;
  if (context.model_ranked.empty() && !context.predict_us) return make_ensemble(options);  // no model: the bandit alone
  options.ranked_first = context.model_ranked;
  const auto predict = context.predict_us;
  options.model = [predict](const Config& c) -> double {
    const std::optional<double> us = predict ? predict(c) : std::nullopt;
    return us ? *us : std::numeric_limits<double>::infinity();
  };
  return make_ensemble(options);
}

}  // namespace ktune
