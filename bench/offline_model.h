#pragma once
// The model side of the offline search evaluation (bench/search_offline_eval.cpp): the
// emulator's recorded predictions replace the ground truth's first-model ones where a
// predictions file has the case, and the SAAKE walk over those predictions (TableOracle)
// gives SeedEnsemble its seed. Cases the file lacks keep the first cost model and, for the
// seed, its best prediction; both are labelled so the table says which model answered.
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/kernel_family.h"
#include "search/saake_walk.h"
#include "search/table_oracle.h"
#include "search/techniques/offline_eval.h"

namespace ktune {

struct OfflineSeed {
  Config config;
  std::string key;     // canonical
  std::string source;  // "SAAKE walk (emulator)" or the fallback
  std::string stop;    // the winning walk's stop reason; empty for the fallback
  size_t walk_steps = 0;
};

// Replaces predicted_us (and the model label) of every case the tables hold.
inline void use_predictions(std::vector<GroundTruthCase>& cases, const std::map<std::string, PredictionTable>& tables,
                            const std::string& model) {
  for (GroundTruthCase& truth : cases) {
    const auto it = tables.find(truth.label());
    if (it == tables.end()) continue;
    std::map<std::string, double> predicted;
    std::map<std::string, std::string> plan;
    for (const auto& [key, us] : truth.time_us) {
      const auto row = it->second.rows.find(key);
      if (row != it->second.rows.end()) {
        predicted[key] = row->second.time_us;
        if (!row->second.plan.empty()) plan[key] = row->second.plan;
      } else if (std::isinf(us)) {
        // It never ran (a format the matrix refuses): nothing to predict, and never the best.
        predicted[key] = std::numeric_limits<double>::infinity();
      } else {
        throw std::runtime_error(truth.label() + ": no prediction for " + key + ", which was measured");
      }
    }
    if (it->second.rows.size() > predicted.size())
      throw std::runtime_error(truth.label() + ": the predictions hold configurations the ground truth lacks");
    truth.predicted_us = std::move(predicted);
    truth.plan = std::move(plan);
    truth.model = model;
  }
}

// A case's problem for `family`: its recorded parameters (none: the defaults) and dtype.
inline Problem case_problem(const KernelFamily& family, const std::string& problem, const std::string& dtype) {
  return make_problem(family, problem.empty() ? nlohmann::json() : nlohmann::json::parse(problem),
                      Precision::uniform(dtype_from_string(dtype)));
}

// The seed of every case: the best of the SAAKE walks from the family's canonical starts over
// the case's prediction table, or the model's best prediction where there is no table (or
// no walk could start).
inline std::map<std::string, OfflineSeed> saake_seeds(const std::vector<GroundTruthCase>& cases,
                                                      const std::map<std::string, PredictionTable>& tables,
                                                      const KernelFamily& family) {
  std::map<std::string, OfflineSeed> seeds;
  for (const GroundTruthCase& truth : cases) {
    const Problem problem = case_problem(family, truth.problem, truth.dtype);
    const ParameterSpace space = family.space(problem);
    const CanonicalMoves moves = family.canonical_moves(problem);
    OfflineSeed seed;
    const auto it = tables.find(truth.label());
    if (it != tables.end() && !moves.starts.empty()) {
      TableOracle oracle(space, it->second);
      const std::vector<SaakeWalk> walks = saake_search(oracle, moves);
      if (!walks.empty() && walks.front().best) {
        seed = {*walks.front().best, space.canonical(*walks.front().best), "SAAKE walk (" + truth.model + ")",
                walks.front().stop, walks.front().path.size() - 1};
      }
    }
    if (seed.key.empty()) {
      const Config best = best_predicted(truth, space);
      seed = {best, space.canonical(best), "best prediction (" + truth.model + ")", "", 0};
    }
    seeds[truth.label()] = seed;
  }
  return seeds;
}

}  // namespace ktune
