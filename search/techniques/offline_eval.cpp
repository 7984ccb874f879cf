#include "search/techniques/offline_eval.h"

#include <fstream>
#include <limits>
#include <set>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "search/techniques/drive.h"
#include "search/techniques/ensemble.h"
#include "search/techniques/random_search.h"

namespace ktune {

namespace {

const double kInf = std::numeric_limits<double>::infinity();

double lookup(const std::map<std::string, double>& m, const std::string& key, const std::string& what) {
  const auto it = m.find(key);
  if (it == m.end()) throw std::runtime_error("ground truth has no " + what + " for " + key);
  return it->second;
}

}  // namespace

std::string case_label(const std::string& workload, const std::string& problem, const std::string& dtype) {
  return workload + (problem.empty() ? "" : " " + problem) + "/" + dtype;
}

std::vector<GroundTruthCase> load_ground_truth(const std::string& path, const CaseSpace& space_of) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read ground truth " + path);
  const nlohmann::json j = nlohmann::json::parse(in);

  std::vector<GroundTruthCase> out;
  for (const auto& w : j.at("workloads")) {
    GroundTruthCase t;
    t.workload = w.at("workload").get<std::string>();
    t.problem = w.value("problem", nlohmann::json()).empty() ? "" : w["problem"].dump();  // null or {}: none
    t.dtype = w.at("dtype").get<std::string>();
    const ParameterSpace space = space_of(t.problem, t.dtype);
    std::map<std::string, bool> valid_keys;
    for (const auto& c : space.enumerate()) valid_keys[space.canonical(c)] = true;
    t.best_us = kInf;
    for (const auto& c : w.at("configs")) {
      const std::string key = c.at("config").get<std::string>();
      if (!valid_keys.count(key)) throw std::runtime_error(t.label() + ": " + key + " is not a valid configuration");
      const auto& m = c.at("measurement");
      const double us = m.at("status").get<std::string>() == "ok" ? m.at("median_us").get<double>() : kInf;
      t.time_us[key] = us;
      t.predicted_us[key] = c.at("predicted_us").get<double>();
      t.best_us = std::min(t.best_us, us);
    }
    if (t.time_us.size() != valid_keys.size()) {
      throw std::runtime_error(t.label() + ": " + std::to_string(t.time_us.size()) + " configurations recorded, the space has " +
                               std::to_string(valid_keys.size()));
    }
    if (!(t.best_us < kInf)) throw std::runtime_error(t.label() + ": no configuration succeeded");
    out.push_back(std::move(t));
  }
  return out;
}

const std::vector<Strategy>& all_strategies() {
  static const std::vector<Strategy> all = {Strategy::Random, Strategy::Ensemble, Strategy::ModelTopKEnsemble,
                                            Strategy::SeedEnsemble};
  return all;
}

std::string strategy_name(Strategy s) {
  switch (s) {
    case Strategy::Random:
      return "random";
    case Strategy::Ensemble:
      return "ensemble";
    case Strategy::ModelTopKEnsemble:
      return "model_top_k+ensemble";
    case Strategy::SeedEnsemble:
      return "seed+ensemble";
  }
  return "unknown";
}

Config best_predicted(const GroundTruthCase& truth, const ParameterSpace& space) {
  const std::string* best = nullptr;
  for (const auto& [key, us] : truth.predicted_us)  // map order: ties go to the smaller key
    if (!best || us < truth.predicted_us.at(*best)) best = &key;
  for (const auto& c : space.enumerate())
    if (space.canonical(c) == *best) return c;
  throw std::runtime_error("no configuration " + *best);
}

EvalRun evaluate(Strategy strategy, const GroundTruthCase& truth, const ParameterSpace& space, uint64_t seed,
                 const EvalOptions& options) {
  const PredictFn model = [&](const Config& c) { return lookup(truth.predicted_us, space.canonical(c), "prediction"); };
  std::unique_ptr<Technique> technique;
  EnsembleOptions ensemble;
  switch (strategy) {
    case Strategy::Random:
      technique = std::make_unique<RandomSearch>();
      break;
    case Strategy::Ensemble:
      technique = make_ensemble(ensemble);
      break;
    case Strategy::ModelTopKEnsemble:
      ensemble.model = model;
      ensemble.model_first = options.model_first;
      technique = make_ensemble(ensemble);
      break;
    case Strategy::SeedEnsemble:
      // The walk's seed first, then the model's top k (the seed is skipped there when it is
      // one of them), then the bandit with the model as an arm: the seed adds at most one
      // measurement to model_top_k+ensemble, and saves the rest when it lands.
      ensemble.seed = options.seed ? options.seed(truth, space) : best_predicted(truth, space);
      ensemble.model = model;
      ensemble.model_first = options.model_first;
      technique = make_ensemble(ensemble);
      break;
  }
  ResultsStore results(space);
  Rng rng(seed);
  // The first configuration measured of each plan, whose time its plan twins carry.
  std::map<std::string, std::string> measured_plans;
  const MeasureFn measure = [&](const Config& c) {
    const std::string key = space.canonical(c);
    const auto plan = truth.plan.find(key);
    if (plan == truth.plan.end()) return lookup(truth.time_us, key, "measurement");
    const auto first = measured_plans.emplace(plan->second, key).first;
    return lookup(truth.time_us, first->second, "measurement");
  };
  drive(*technique, results, rng, measure, std::numeric_limits<size_t>::max());

  EvalRun run;
  double best = kInf;
  std::set<std::string> plans_seen;
  size_t measurements = 0;
  for (const auto& o : results.history()) {
    run.sequence.push_back(o.key);
    run.proposers.push_back(o.technique);
    const auto plan = truth.plan.find(o.key);
    if (plan != truth.plan.end() && !plans_seen.insert(plan->second).second) continue;  // a plan twin: nothing new
    ++measurements;
    best = std::min(best, o.time_us);
    run.best_ratio.push_back(best / truth.best_us);
    if (!run.to_tolerance && best <= truth.best_us * (1.0 + options.tolerance)) run.to_tolerance = measurements;
  }
  return run;
}

}  // namespace ktune
