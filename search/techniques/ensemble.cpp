#include "search/techniques/ensemble.h"

#include "search/techniques/differential_evolution.h"
#include "search/techniques/nelder_mead.h"
#include "search/techniques/normal_greedy_mutation.h"
#include "search/techniques/pattern_search.h"
#include "search/techniques/random_search.h"
#include "search/techniques/seed_technique.h"
#include "search/techniques/staged.h"
#include "search/techniques/uniform_greedy_mutation.h"

namespace ktune {

std::unique_ptr<Technique> make_ensemble(const EnsembleOptions& options) {
  std::vector<std::unique_ptr<Technique>> arms;
  arms.push_back(std::make_unique<RandomSearch>());
  arms.push_back(std::make_unique<UniformGreedyMutation>());
  arms.push_back(std::make_unique<NormalGreedyMutation>());
  arms.push_back(std::make_unique<NelderMead>());
  arms.push_back(std::make_unique<DifferentialEvolution>());
  arms.push_back(std::make_unique<PatternSearch>());
  if (options.model) arms.push_back(std::make_unique<ModelTopK>(options.model, options.ranked_first));

  std::vector<Stage> stages;
  if (options.seed) stages.push_back({std::make_unique<SeedTechnique>(std::vector<Config>{*options.seed}), 1});
  if (options.model && options.model_first > 0) {
    stages.push_back({std::make_unique<ModelTopK>(options.model, options.ranked_first), options.model_first});
  }
  stages.push_back({std::make_unique<AucBandit>(std::move(arms), options.bandit)});
  return std::make_unique<Staged>(std::move(stages));
}

}  // namespace ktune
