// Offline evaluation of the search strategies (issue 5 part 5): how many measurements each
// needs to get within 3% of the exhaustive best, on every workload of a recorded ground truth,
// over several seeds. Writes a markdown table and CSV curves (best so far / best vs
// measurements). The model is the emulator's recorded predictions (--predictions; "none" keeps
// the ground truth's first-model predictions), and the SAAKE walk over them seeds
// seed+ensemble (seed, then the model's top k, then the bandit). Usage (from the repository root):
//   build/bin/search_offline_eval [--ground-truth bench/data/spmv_ground_truth_h200.json]
//       [--predictions bench/data/spmv_predictions_h200.json] [--family spmv] [--seeds 20]
//       [--model-first 8] [--seed saake|best] [--out bench/results/search_offline_eval]
// --seed best seeds seed+ensemble with the model's best prediction instead of the walk (to
// tell the walk's contribution from the model's).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/offline_model.h"
#include "kernels/kernel_family.h"
#include "search/techniques/offline_eval.h"

namespace {

using namespace ktune;

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

std::string fmt(double v, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  std::string truth_path = "bench/data/spmv_ground_truth_h200.json";
  std::string predictions_path = "bench/data/spmv_predictions_h200.json";
  std::string family_name = "spmv";
  std::string out = "bench/results/search_offline_eval";
  size_t seeds = 20;
  std::string seed_from = "saake";
  EvalOptions options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--ground-truth") truth_path = value;
    else if (flag == "--predictions") predictions_path = value;
    else if (flag == "--family") family_name = value;
    else if (flag == "--seeds") seeds = std::stoul(value);
    else if (flag == "--model-first") options.model_first = std::stoul(value);
    else if (flag == "--seed") seed_from = value;
    else if (flag == "--out") out = value;
    else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  const KernelFamily* family = find_family(family_name);
  if (!family) {
    std::cerr << "unknown family " << family_name << "\n";
    return 2;
  }
  const CaseSpace space_of = [family](const std::string& problem, const std::string& dtype) {
    return family->space(case_problem(*family, problem, dtype));
  };
  std::vector<GroundTruthCase> cases = load_ground_truth(truth_path, space_of);
  std::map<std::string, ParameterSpace> spaces;  // by case label
  for (const GroundTruthCase& truth : cases) spaces.emplace(truth.label(), space_of(truth.problem, truth.dtype));
  std::map<std::string, PredictionTable> tables;
  if (predictions_path != "none") tables = load_prediction_tables(predictions_path, space_of);
  use_predictions(cases, tables, "emulator");
  if (seed_from != "saake" && seed_from != "best") {
    std::cerr << "--seed must be saake or best\n";
    return 2;
  }
  // The walk is deterministic: one seed per case, whatever the random seed.
  std::map<std::string, OfflineSeed> case_seeds = saake_seeds(cases, tables, *family);
  if (seed_from == "best") {
    for (const auto& truth : cases) {
      const ParameterSpace& space = spaces.at(truth.label());
      const Config best = best_predicted(truth, space);
      case_seeds[truth.label()] = {best, space.canonical(best), "best prediction (" + truth.model + ")", "", 0};
    }
  }
  options.seed = [&case_seeds](const GroundTruthCase& truth, const ParameterSpace&) {
    return case_seeds.at(truth.label()).config;
  };
  options.seed_label = seed_from == "saake"
                           ? "the best of the SAAKE walks from the family's canonical starts over the case's "
                             "predictions (search/table_oracle.h), else the model's best prediction"
                           : "the model's best prediction (--seed best)";
  size_t emulated = 0;
  for (const auto& truth : cases) emulated += truth.model == "emulator";

  // counts[strategy][case] = measurements to within tolerance, one per seed
  std::map<std::string, std::map<std::string, std::vector<double>>> counts;
  std::ofstream csv(out + "_curves.csv");
  csv << "strategy,workload,problem,dtype,measurements,median_ratio,p90_ratio\n";
  for (Strategy s : all_strategies()) {
    for (const auto& truth : cases) {
      std::vector<std::vector<double>> curves;
      for (uint64_t seed = 0; seed < seeds; ++seed) {
        const EvalRun run = evaluate(s, truth, spaces.at(truth.label()), seed, options);
        counts[strategy_name(s)][truth.label()].push_back(static_cast<double>(run.to_tolerance));
        curves.push_back(run.best_ratio);
      }
      for (size_t m = 0; m < curves[0].size(); ++m) {
        std::vector<double> at;
        for (const auto& c : curves) at.push_back(c[std::min(m, c.size() - 1)]);
        std::string problem = truth.problem;  // JSON text, quoted for the CSV
        for (size_t q = problem.find('"'); q != std::string::npos; q = problem.find('"', q + 2)) problem.insert(q, 1, '"');
        csv << strategy_name(s) << "," << truth.workload << ",\"" << problem << "\"," << truth.dtype << "," << m + 1 << ","
            << fmt(quantile(at, 0.5), 4) << "," << fmt(quantile(at, 0.9), 4) << "\n";
      }
    }
  }

  std::ostringstream md;
  md << "# Search strategies, offline (" << truth_path << ")\n\n"
     << "Measurements needed to get within " << fmt(options.tolerance * 100, 0)
     << "% of the exhaustive best, " << cases.size() << " workload x dtype cases, " << seeds
     << " seeds each (a simulated measurement is the recorded median). Model: the emulator's predictions ("
     << predictions_path << ") for " << emulated << " cases"
     << (emulated == cases.size()
             ? std::string(". ")
             : "; the other " + std::to_string(cases.size() - emulated) +
                   " fall back to the ground truth's `predicted_us` (first cost model), marked † below. ")
     << "model_top_k+ensemble measures the model's top "
     << options.model_first << " first, then the AUC bandit (model as one more arm). "
        "seed+ensemble measures one seed, then the model's top "
     << options.model_first << " (the seed skipped), then the same bandit; its seed: " << options.seed_label << ".\n\n"
     << "| strategy | median | p90 | mean | max |\n|---|---|---|---|---|\n";
  std::map<std::string, double> medians;
  for (Strategy s : all_strategies()) {
    std::vector<double> all;
    for (const auto& [label, v] : counts[strategy_name(s)]) all.insert(all.end(), v.begin(), v.end());
    double mean = 0;
    for (double x : all) mean += x / static_cast<double>(all.size());
    medians[strategy_name(s)] = quantile(all, 0.5);
    md << "| " << strategy_name(s) << " | " << fmt(quantile(all, 0.5)) << " | " << fmt(quantile(all, 0.9)) << " | "
       << fmt(mean) << " | " << fmt(*std::max_element(all.begin(), all.end()), 0) << " |\n";
  }
  md << "\nRatio ensemble / model_top_k+ensemble (medians): "
     << fmt(medians["ensemble"] / medians["model_top_k+ensemble"], 2)
     << "; ensemble / seed+ensemble: " << fmt(medians["ensemble"] / medians["seed+ensemble"], 2) << ".\n\n";
  size_t seeds_in_tolerance = 0;
  for (const auto& truth : cases)
    seeds_in_tolerance += truth.time_us.at(case_seeds.at(truth.label()).key) <= truth.best_us * (1 + options.tolerance);
  md << "Seeds within " << fmt(options.tolerance * 100, 0) << "% of the exhaustive best when measured: "
     << seeds_in_tolerance << " of " << cases.size() << ".\n\n";
  md << "Per case (median measurements over seeds; the seed's measured time over the exhaustive best):\n\n| case |";
  for (Strategy s : all_strategies()) md << " " << strategy_name(s) << " |";
  md << " seed | seed / best | walk stop (steps) |\n|---|";
  for (size_t i = 0; i < all_strategies().size() + 3; ++i) md << "---|";
  md << "\n";
  for (const auto& truth : cases) {
    const OfflineSeed& seed = case_seeds.at(truth.label());
    md << "| " << truth.label() << (truth.model == "emulator" ? "" : " †") << " |";
    for (Strategy s : all_strategies()) md << " " << fmt(quantile(counts[strategy_name(s)][truth.label()], 0.5)) << " |";
    md << " `" << seed.key << "` | " << fmt(truth.time_us.at(seed.key) / truth.best_us, 3) << " | "
       << (seed.stop.empty() ? seed.source : seed.stop + " (" + std::to_string(seed.walk_steps) + ")") << " |\n";
  }
  std::ofstream(out + ".md") << md.str();
  std::cout << md.str();
  return 0;
}
