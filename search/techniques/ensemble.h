#pragma once
// The search ktune runs: optionally a seed configuration (the SAAKE walk's result), then
// optionally the model's top k, then the AUC bandit over random, uniform and normal greedy
// mutation, Nelder-Mead, differential evolution, pattern search, and model top-k as one more
// arm when there is a model.
#include <cstddef>
#include <memory>
#include <optional>

#include "search/techniques/auc_bandit.h"
#include "search/techniques/model_top_k.h"

namespace ktune {

struct EnsembleOptions {
  std::optional<Config> seed;
  PredictFn model;             // empty: no model
  std::vector<Config> ranked_first;  // a ranking at hand, proposed before the model predicts
  size_t model_first = 0;      // proposals the model makes before the bandit starts
  AucBandit::Options bandit;
};

std::unique_ptr<Technique> make_ensemble(const EnsembleOptions& options);

}  // namespace ktune
