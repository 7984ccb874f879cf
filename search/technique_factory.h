#pragma once
// The one place the tuning loop gets its technique from. Point make_search_technique at the
// AUC-bandit ensemble (search/techniques/) and every tune uses it; tests pass their own.
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "search/techniques/search_core.h"

namespace ktune {

struct TechniqueContext {
  const ParameterSpace* space = nullptr;
  // Valid configurations, fastest prediction first (empty when the space is too large to rank).
  std::vector<Config> model_ranked;
  // The model's prediction for any configuration; nothing when it cannot run.
  std::function<std::optional<double>(const Config&)> predict_us;
};

std::unique_ptr<Technique> make_search_technique(const TechniqueContext& context);

}  // namespace ktune
