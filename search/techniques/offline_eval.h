#pragma once
// Offline evaluation of the search strategies (issue 5 part 5) against recorded ground truth:
// every configuration of a family measured on a set of workloads. A simulated measurement is
// a look-up of the recorded median, so a strategy's cost is the number of measurements it
// needs to get within a tolerance of the exhaustive best; no GPU is involved.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kernels/parameter_space.h"

namespace ktune {

// A case's name in tables and files: "workload/dtype", or "workload PROBLEM/dtype" where the
// family has problem parameters (PROBLEM: their JSON text, e.g. {"k":128}).
std::string case_label(const std::string& workload, const std::string& problem, const std::string& dtype);

// The parameter space of one case, from its problem's JSON text ("" when it has none) and dtype:
// a family's space may depend on its problem (SpMM's K tiles on K).
using CaseSpace = std::function<ParameterSpace(const std::string& problem, const std::string& dtype)>;
// One space for every case (a family without problem parameters).
inline CaseSpace same_space(ParameterSpace space) {
  return [space = std::move(space)](const std::string&, const std::string&) { return space; };
}

struct GroundTruthCase {
  std::string workload;
  std::string problem;  // the problem's JSON text; empty in truths that record none (SpMV's)
  std::string dtype;
  std::map<std::string, double> time_us;       // canonical key -> median; infinity when failed
  std::map<std::string, double> predicted_us;  // canonical key -> the model's prediction
  // canonical key -> plan identity (kernels/plan_identity.h), where the predictions record it:
  // a configuration whose plan was measured costs no measurement and carries that time, as in
  // the tuning loop.
  std::map<std::string, std::string> plan;
  // Whose predictions predicted_us holds: the ground truth's own "predicted_us" (the first
  // cost model) unless a caller replaces them (e.g. with the emulator's, from a file).
  std::string model = "first cost model";
  double best_us = 0;                          // the exhaustive best
  std::string label() const { return case_label(workload, problem, dtype); }
};

// Reads bench/data/<family>_ground_truth_*.json; every config string must be a valid
// configuration of its case's space and every valid configuration must be present (throws
// otherwise).
std::vector<GroundTruthCase> load_ground_truth(const std::string& path, const CaseSpace& space_of);

enum class Strategy { Random, Ensemble, ModelTopKEnsemble, SeedEnsemble };
const std::vector<Strategy>& all_strategies();
std::string strategy_name(Strategy s);

struct EvalOptions {
  double tolerance = 0.03;  // within 3% of the exhaustive best
  size_t model_first = 8;   // the model's top k before the bandit (ModelTopKEnsemble, and SeedEnsemble after its seed)
  // The seed of SeedEnsemble: the SAAKE walk's result, injected by the caller because this
  // library cannot link the walk (ktune_search depends on it). Without one: the model's best
  // prediction.
  std::function<Config(const GroundTruthCase&, const ParameterSpace&)> seed;
  std::string seed_label = "the model's best prediction";
};

struct EvalRun {
  std::vector<std::string> sequence;     // canonical keys in landing order, plan twins too
  std::vector<std::string> proposers;    // who proposed each
  std::vector<double> best_ratio;        // best so far / exhaustive best after each measurement (twins cost none)
  size_t to_tolerance = 0;               // measurements to within tolerance; 0 when never
};

// One strategy on one case with one seed, until every valid configuration is measured.
EvalRun evaluate(Strategy strategy, const GroundTruthCase& truth, const ParameterSpace& space,
                 uint64_t seed, const EvalOptions& options);

// The model's best-predicted configuration (ties by canonical key).
Config best_predicted(const GroundTruthCase& truth, const ParameterSpace& space);

}  // namespace ktune
