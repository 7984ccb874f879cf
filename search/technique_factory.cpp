#include "search/technique_factory.h"

#include <limits>
#include <map>
#include <string>

#include "search/techniques/ensemble.h"

namespace ktune {

std::unique_ptr<Technique> make_search_technique(const TechniqueContext& context) {
  EnsembleOptions options;
  options.seed = context.seed;
  options.model_first = context.model_first;
  auto rank = std::make_shared<std::map<std::string, double>>();
  if (context.space)
    for (size_t i = 0; i < context.model_ranked.size(); ++i)
      rank->emplace(context.space->canonical(context.model_ranked[i]), static_cast<double>(i));
  if (rank->empty() && !context.predict_us) return make_ensemble(options);  // no model: the bandit alone
  const ParameterSpace* space = context.space;
  const auto predict = context.predict_us;
  const double past_ranking = static_cast<double>(rank->size());
  options.model = [rank, space, predict, past_ranking](const Config& c) -> double {
    constexpr double kNever = std::numeric_limits<double>::infinity();
    if (space && !rank->empty()) {
      auto it = rank->find(space->canonical(c));
      if (it != rank->end()) return it->second;
      if (!predict) return kNever;
      // Unranked (the ranking holds only what launches): after every ranked configuration.
      const std::optional<double> us = predict(c);
      return us ? past_ranking + *us : kNever;
    }
    const std::optional<double> us = predict ? predict(c) : std::nullopt;
    return us ? *us : kNever;
  };
  if (space) options.ranked_first = context.model_ranked;
  return make_ensemble(options);
}

}  // namespace ktune
