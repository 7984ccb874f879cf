// How well the SAAKE emulator (model/saake) predicts measured kernel times, with no GPU: every
// configuration a ground truth measured (bench/family_bench's <family>_ground_truth.json; by
// default bench/data/spmv_ground_truth_h200.json, SpMV on 11 workloads x 2 dtypes on an H200)
// compiled through NVRTC for its problem, emulated on the measured device's spec and compared
// with its measured median. Per workload, problem and dtype: Spearman rank correlation over the
// configurations that ran ("ok"), whether the measured best is in the predicted top 5,
// geomean |predicted - measured| / measured, and the host time per candidate.
//
// usage: emulator_accuracy [--truth FILE|DIR] [--family NAME] [--matrices DIR] [--only NAME] [--small]
//                          [--dtype f32|f64|both] [--samples HEAVIEST,RANDOM] [--clock-ghz GHZ]
//                          [--trace-budget WARP_INSTRUCTIONS]
//                          [--calibration FILE] [--json FILE] [--md FILE] [--predictions-out FILE]
//                          [--explain] [--first-model]
// e.g. emulator_accuracy --truth OUT/spmm_ground_truth.json --only hammond
// --family is the kernel family the truth measured (default: the "--family NAME" of the truth's
// meta command, else spmv); each entry's "problem" (absent in older SpMV truths: the family's
// defaults) is what its configurations are compiled and emulated for, and a workload is named
// with it in the tables ("mdual {"k":128}"). --only keeps the workloads it names (comma-separated).
// --calibration applies a measured resource table and clock (model/calibration) to the spec;
// --predictions-out writes every prediction (time, occupancy, bottleneck, utilisation) for the
// search's offline evaluation; --explain adds each launch step's sampled blocks (weight, cycles),
// time-by-weight fit and makespan to those entries, for finding why a prediction is off.
// --first-model ranks by the first cost model (the family's estimate, model/first_cost_model.h)
// instead of the emulator: the ranking the tuner falls back to where the emulator cannot follow.
// Run from the repository root (the defaults are relative to it); --small skips the generated
// matrices of bench/bench_workloads.h (up to 84 M nonzeros).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <nlohmann/json.hpp>

#include "bench_workloads.h"
#include "command_line.h"
#include "ranking_metrics.h"
#include "recorded_truth.h"
#include "gpu/compile_cache.h"
#include "gpu/measurement.h"
#include "gpu/thread_pool.h"
#include "kernels/kernel_family.h"
#include "kernels/plan_identity.h"
#include "model/calibration/calibration.h"
#include "model/first_cost_model.h"
#include "model/saake/candidate_emulation.h"
#include "search/candidate_order.h"
#include "workload/input_error.h"
#include "workload/matrix_market.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace ktune;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string truth = "bench/data/spmv_ground_truth_h200.json";
  std::string family;  // empty: the truth's (truth_family)
  std::string matrices = "data/matrices";
  std::string only, json_out, md_out, calibration, predictions_out;
  bool small = false;
  bool explain = false;
  bool first_model = false;
  std::vector<std::string> dtypes = {"f32", "f64"};
  SamplePlan samples{};
  uint64_t trace_budget = 0;  // 0: the emulation's default (CandidateEmulationOptions)
  double clock_ghz = 0;  // 0: the device's clock from the truth's meta
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] { return bench::option_value(argc, argv, i); };
    if (a == "--truth") o.truth = value();
    else if (a == "--family") o.family = value();
    else if (a == "--matrices") o.matrices = value();
    else if (a == "--only") o.only = value();
    else if (a == "--json") o.json_out = value();
    else if (a == "--md") o.md_out = value();
    else if (a == "--calibration") o.calibration = value();
    else if (a == "--predictions-out") o.predictions_out = value();
    else if (a == "--small") o.small = true;
    else if (a == "--explain") o.explain = true;
    else if (a == "--first-model") o.first_model = true;
    else if (a == "--clock-ghz") o.clock_ghz = std::stod(value());
    else if (a == "--trace-budget") o.trace_budget = std::stoull(value());
    else if (a == "--dtype") {
      const std::string d = value();
      o.dtypes = d == "both" ? std::vector<std::string>{"f32", "f64"} : std::vector<std::string>{d};
    } else if (a == "--samples") {
      const std::string s = value();
      const size_t comma = s.find(',');
      if (comma == std::string::npos) throw std::runtime_error("--samples takes HEAVIEST,RANDOM");
      o.samples.heaviest = std::stoi(s.substr(0, comma));
      o.samples.random = std::stoi(s.substr(comma + 1));
    } else throw std::runtime_error("unknown argument " + a);
  }
  return o;
}

std::optional<Workload> load_workload(const Options& o, const KernelFamily& family, const std::string& name) {
  return bench::load_named_workload(family, name, o.matrices, o.small);
}

// Relative errors below this count as this, so one exact hit cannot send a geomean to 0.
constexpr double kErrorFloor = 1e-3;

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += std::log(std::max(x, kErrorFloor));
  return std::exp(s / static_cast<double>(v.size()));
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// What --explain adds to a prediction: per launch step, the samples and the extrapolation.
json explain_steps(const CandidatePrediction& p) {
  json steps = json::array();
  for (const StepEmulation& s : p.steps) {
    json samples = json::array();
    for (const SampledBlock& b : s.prediction.samples)
      samples.push_back({{"block", b.block}, {"weight", b.weight}, {"span", b.span}, {"cycles", b.cycles}});
    steps.push_back({{"entry", s.entry}, {"blocks", s.blocks}, {"threads_per_block", s.threads_per_block},
                     {"resident_blocks", s.prediction.resident_blocks}, {"imbalance", s.imbalance},
                     {"fit", {{"intercept", s.prediction.fit_intercept}, {"slope", s.prediction.fit_slope}, {"span_slope", s.prediction.fit_span_slope}}},
                     {"makespan_cycles", s.prediction.makespan_cycles}, {"samples", samples}});
  }
  return steps;
}

// One truth entry to evaluate: the workload, problem and dtype its configurations ran on.
struct Case {
  const json* entry;
  Problem problem;  // the entry's "problem" and dtype, made canonical for the family
};

// A result's name in the tables: its workload, with the problem's parameters where the family
// takes any, so that one matrix's problems (SpMM's k=32 and k=128) stay apart.
std::string case_name(const json& result) {
  const std::string workload = result["workload"];
  return result["problem"].empty() ? workload : workload + " " + result["problem"].dump();
}

struct Candidate {
  std::string key;
  double measured_us = 0;
  double uncertainty_us = 0;  // bench::median_uncertainty_us of the measurement
  double predicted_us = 0;
  std::string bottleneck;
  json prediction;  // the --predictions-out entry
  double emulate_ms = 0;  // interpretation + emulation
  double estimate_ms = 0;  // the plan and its weigher (host preparation)
  std::string plan;        // kernels/plan_identity.h
};

struct CompiledConfig {
  Config config;
  std::shared_ptr<const CompiledKernel> kernel;
};
// Keyed by the problem (parameters and precision: a source differs with them) and the
// configuration's canonical key.
using Kernels = std::map<std::pair<std::string, std::string>, CompiledConfig>;

std::string problem_key(const Problem& p) { return p.key() + " " + to_string(p.precision); }

// Compiles every configuration the cases measured ("ok"), once per problem, on the thread pool.
Kernels compile_all(const KernelFamily& family, const std::vector<Case>& cases, const std::string& arch) {
  static const NvrtcCompiler compiler;
  CompileCache cache(compiler, 1024, nullptr);
  ThreadPool pool;
  Kernels out;
  std::map<Kernels::key_type, std::future<std::shared_ptr<const CompiledKernel>>> pending;
  for (const Case& c : cases) {
    const ParameterSpace space = family.space(c.problem);
    for (const json& measured : (*c.entry)["configs"]) {
      if (measured["measurement"]["status"] != "ok") continue;
      const Kernels::key_type key{problem_key(c.problem), measured["config"].get<std::string>()};
      if (out.count(key)) continue;
      const Config config = space.from_canonical(key.second);
      const KernelSource s = family.source(c.problem, config);
      CompileRequest request{s.code, s.entries, s.options, compile_arch(s, arch)};
      pending[key] = pool.submit([&cache, request] { return cache.get(request); });
      out[key].config = config;
    }
  }
  for (auto& [key, f] : pending) out[key].kernel = f.get();
  return out;
}

json evaluate_workload(const Case& c, const Workload& w, const KernelFamily& family, const Kernels& kernels,
                       const GpuSpec& gpu, const Options& o) {
  const json& entry = *c.entry;
  const std::string dtype_name = entry["dtype"];
  CandidateEmulationOptions options;
  options.samples = o.samples;
  if (o.trace_budget > 0) options.max_traced_warp_instructions_per_launch = o.trace_budget;
  std::vector<Candidate> done;
  json failures = json::array();
  std::optional<LaunchPlan> previous;
  for (const json& measured : entry["configs"]) {
    if (measured["measurement"]["status"] != "ok") continue;
    Candidate cand;
    cand.key = measured["config"];
    cand.measured_us = measured["measurement"]["median_us"];
    cand.uncertainty_us = bench::median_uncertainty_us(measured["measurement"].value("iqr_us", 0.0),
                                                       measured["measurement"].value("count", 0.0));
    const CompiledConfig& compiled = kernels.at({problem_key(c.problem), cand.key});
    const auto t0 = Clock::now();
    LaunchPlan plan = previous ? family.prepare_next(w, c.problem, compiled.config, *previous)
                               : family.prepare(w, c.problem, compiled.config);
    // As the tuner weighs blocks: the family's own weights from the plan's buffers where it has
    // them (SpMV's CSR rows, SpMM's), its estimate only for launches without.
    const LaunchWeigher weigher = LaunchWeigher::of(family, w, c.problem, compiled.config, plan);
    cand.plan = plan_identity(plan, compiled.kernel->key);
    const auto t1 = Clock::now();
    try {
      if (o.first_model) {
        const Prediction p = predict(family.estimate(w, c.problem, compiled.config), combined_usage(*compiled.kernel), gpu);
        cand.predicted_us = p.time_us;
        cand.bottleneck = p.bottleneck;
        cand.prediction = {{"config", cand.key}, {"predicted_us", p.time_us}, {"plan", cand.plan}, {"first_model", p.to_json()}};
        cand.estimate_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        done.push_back(cand);
        continue;
      }
      const CandidatePrediction p = emulate_plan(plan, *compiled.kernel, weigher, gpu, options);
      cand.predicted_us = p.microseconds;
      cand.bottleneck = std::string(resource_name(p.bottleneck)) + ":" + bound_kind_name(p.bottleneck_kind);
      json utilisation = json::object(), transactions = json::object();
      for (size_t r = 0; r < kResourceCount; ++r) {
        if (p.utilisation[r] > 0) utilisation[resource_name(static_cast<Resource>(r))] = p.utilisation[r];
        if (p.transactions[r] > 0) transactions[resource_name(static_cast<Resource>(r))] = p.transactions[r];
      }
      // Where the longest step's sectors were served, for reading a miss against the cache estimate.
      const CacheSummary& cache = p.steps.at(p.longest_step()).prediction.cache;
      cand.prediction = {{"config", cand.key}, {"predicted_us", p.microseconds}, {"plan", cand.plan}, {"occupancy", p.occupancy},
                         {"bottleneck", resource_name(p.bottleneck)}, {"kind", bound_kind_name(p.bottleneck_kind)},
                         {"utilisation", utilisation},
                         {"transactions", transactions},  // whole plan, scaled from the samples: ncu's counts
                         {"cache", {{"l1_hit_rate", cache.l1_hit_rate}, {"l2_hit_rate", cache.l2_hit_rate},
                                    {"sampled_sectors", {{"l1", cache.l1_sectors}, {"l2", cache.l2_sectors},
                                                         {"dram", cache.dram_sectors}}}}},
                         // What the emulation cost: a tune's walk budgets its emulations by these.
                         {"warp_instructions", p.warp_instructions},
                         {"host_seconds", {{"interpret", p.interpret_seconds}, {"emulate", p.emulate_seconds}}}};
      if (o.explain) cand.prediction["steps"] = explain_steps(p);
    } catch (const InputError& e) {
      failures.push_back({{"config", cand.key}, {"error", e.what()}});
      continue;
    }
    cand.estimate_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    cand.emulate_ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
    done.push_back(cand);
    previous = std::move(plan);
  }
  // Every configuration's prediction is written out, but configurations that make one plan
  // are one candidate to the tuner (it measures the plan once, search/tuning_loop.h): the
  // metrics rank distinct plans, the first configuration of each in the truth's order
  // standing for its twins.
  json predictions = json::array();
  for (const Candidate& c : done) predictions.push_back(c.prediction);
  const size_t configurations = done.size();
  {
    std::set<std::string> plans;
    std::vector<Candidate> distinct;
    for (Candidate& c : done)
      if (plans.insert(c.plan).second) distinct.push_back(std::move(c));
    done = std::move(distinct);
  }
  std::vector<double> measured, uncertainty, predicted, errors, emulate_ms, estimate_ms;
  for (const Candidate& c : done) {
    measured.push_back(c.measured_us);
    uncertainty.push_back(c.uncertainty_us);
    predicted.push_back(c.predicted_us);
    errors.push_back(std::abs(c.predicted_us - c.measured_us) / c.measured_us);
    emulate_ms.push_back(c.emulate_ms);
    estimate_ms.push_back(c.estimate_ms);
  }
  std::vector<size_t> by_prediction(done.size());
  std::iota(by_prediction.begin(), by_prediction.end(), 0);
  std::stable_sort(by_prediction.begin(), by_prediction.end(),
                   [&](size_t a, size_t b) { return predicted[a] < predicted[b]; });
  // The strict rank is that of whichever least time comes first in the truth; the co-best rank
  // counts every configuration the measurement cannot order above it: medians whose notches
  // overlap the best's (bench/ranking_metrics.h).
  const bench::BestRank rank = bench::best_rank(measured, predicted, uncertainty);
  const size_t best = rank.best;
  // Configurations within the harness's precision of the best (it stops at a 2% confidence
  // half-width) cannot be told apart from it: a predicted top 5 holding one of them picks a
  // best configuration as far as measurement can say.
  bool tie_in_top5 = false;
  for (size_t i = 0; i < std::min<size_t>(5, by_prediction.size()); ++i)
    tie_in_top5 = tie_in_top5 || measured[by_prediction[i]] <= measured[best] * (1 + MeasureOptions().target_rel_halfwidth);
  json rows = json::array();
  for (const Candidate& c : done)
    rows.push_back({{"config", c.key}, {"measured_us", c.measured_us}, {"predicted_us", c.predicted_us},
                    {"bottleneck", c.bottleneck}, {"emulate_ms", c.emulate_ms}, {"estimate_ms", c.estimate_ms}});
  return {{"workload", entry["workload"]}, {"problem", c.problem.params}, {"dtype", dtype_name},
          {"rows", entry["rows"]}, {"nnz", entry["nnz"]},
          {"configs", configurations}, {"plans", done.size()}, {"failed", failures},
          {"spearman", bench::spearman(predicted, measured)},
          {"best_measured", done.empty() ? "" : done[best].key},
          {"best_measured_us", done.empty() ? 0.0 : measured[best]},
          {"best_predicted", done.empty() ? "" : done[by_prediction[0]].key},
          {"best_predicted_measured_us", done.empty() ? 0.0 : measured[by_prediction[0]]},
          {"best_rank_in_prediction", rank.strict_rank},
          {"best_in_top5", !done.empty() && rank.strict_rank <= 5},
          {"co_best", rank.co_best},
          {"co_best_rank_in_prediction", rank.co_best_rank},
          {"co_best_in_top5", !done.empty() && rank.co_best_rank <= 5},
          {"tie_in_top5", tie_in_top5},
          {"geomean_rel_error", geomean(errors)}, {"median_rel_error", median(errors)},
          {"median_ratio", [&] { std::vector<double> r; for (size_t i = 0; i < done.size(); ++i) r.push_back(predicted[i] / measured[i]); return median(r); }()},
          {"emulate_ms_mean", emulate_ms.empty() ? 0.0 : std::accumulate(emulate_ms.begin(), emulate_ms.end(), 0.0) / emulate_ms.size()},
          {"emulate_ms_max", emulate_ms.empty() ? 0.0 : *std::max_element(emulate_ms.begin(), emulate_ms.end())},
          {"estimate_ms_mean", estimate_ms.empty() ? 0.0 : std::accumulate(estimate_ms.begin(), estimate_ms.end(), 0.0) / estimate_ms.size()},
          {"candidates", rows}, {"predictions", predictions}};
}

json summarise(const json& results) {
  std::vector<double> rho, errors, ms, candidate_ms;
  int top5 = 0, co5 = 0, tie5 = 0;
  for (const json& r : results) {
    rho.push_back(r["spearman"]);
    top5 += r["best_in_top5"].get<bool>();
    co5 += r["co_best_in_top5"].get<bool>();
    tie5 += r["tie_in_top5"].get<bool>();
    ms.push_back(r["emulate_ms_mean"]);
    for (const json& c : r["candidates"]) candidate_ms.push_back(c["emulate_ms"]);
    for (const json& c : r["candidates"])
      errors.push_back(std::abs(c["predicted_us"].get<double>() - c["measured_us"].get<double>()) / c["measured_us"].get<double>());
  }
  return {{"workloads", results.size()},
          {"median_spearman", median(rho)},
          {"best_in_top5_pct", results.empty() ? 0.0 : 100.0 * top5 / results.size()},
          {"co_best_in_top5_pct", results.empty() ? 0.0 : 100.0 * co5 / results.size()},
          {"tie_in_top5_pct", results.empty() ? 0.0 : 100.0 * tie5 / results.size()},
          {"geomean_rel_error", geomean(errors)},
          {"median_rel_error", median(errors)},
          {"emulate_ms_per_candidate_median", median(ms)},
          {"emulate_ms_median_of_all_candidates", median(candidate_ms)},
          {"candidates_within_20ms_pct", candidate_ms.empty() ? 0.0
              : 100.0 * std::count_if(candidate_ms.begin(), candidate_ms.end(), [](double t) { return t <= 20.0; }) / candidate_ms.size()}};
}

void write_markdown(std::ostream& md, const json& meta, const json& results, const json& summary) {
  md << "Emulator accuracy against " << meta["truth"].get<std::string>() << " (" << meta["device"].get<std::string>()
     << "), samples " << meta["samples"].get<std::string>() << ", host: " << meta["host"].get<std::string>() << ".\n\n"
     << "| workload | dtype | nnz | configs (plans) | Spearman | best in top 5 (rank) | a co-best in top 5 (rank; co-best) | within 2% in top 5 | geomean err | median pred/meas | best measured | predicted best (its µs / best µs) | ms/candidate |\n"
     << "|---|---|---:|---:|---:|---|---|---|---:|---:|---|---|---:|\n";
  for (const json& r : results) {
    const double best_us = r["best_measured_us"];
    md << "| " << case_name(r) << " | " << r["dtype"].get<std::string>() << " | " << r["nnz"] << " | "
       << r["configs"] << " (" << r["plans"] << ") | " << fixed(r["spearman"], 2) << " | " << (r["best_in_top5"].get<bool>() ? "yes" : "no")
       << " (" << r["best_rank_in_prediction"] << ") | " << (r["co_best_in_top5"].get<bool>() ? "yes" : "no") << " ("
       << r["co_best_rank_in_prediction"] << "; " << r["co_best"] << ") | " << (r["tie_in_top5"].get<bool>() ? "yes" : "no") << " | "
       << fixed(100 * r["geomean_rel_error"].get<double>(), 0) << "% | "
       << fixed(r["median_ratio"], 2) << " | " << r["best_measured"].get<std::string>() << " | "
       << r["best_predicted"].get<std::string>() << " (" << fixed(r["best_predicted_measured_us"].get<double>() / best_us, 2)
       << "x) | " << fixed(r["emulate_ms_mean"], 1) << " |\n";
  }
  md << "\nSummary over " << summary["workloads"] << " workloads: median Spearman " << fixed(summary["median_spearman"], 2)
     << " (target >= 0.8), best in predicted top 5 on " << fixed(summary["best_in_top5_pct"], 0)
     << "% (target >= 80%; counting every configuration whose median the measurement cannot order above the best's as a best, "
     << "their notches, 1.58 IQR / sqrt(runs) and at least half a " << fixed(1000 * bench::kTimerTickUs, 0) << " ns tick, overlapping, "
     << fixed(summary["co_best_in_top5_pct"], 0) << "%; a configuration within 2% of the best on " << fixed(summary["tie_in_top5_pct"], 0)
     << "%), geomean |pred - meas| / meas " << fixed(100 * summary["geomean_rel_error"].get<double>(), 0)
     << "% (target <= 15%; median " << fixed(100 * summary["median_rel_error"].get<double>(), 0)
     << "%), emulation " << fixed(summary["emulate_ms_per_candidate_median"], 1)
     << " ms per candidate (median of workload means; target <= 20 ms; over all candidates: median "
     << fixed(summary["emulate_ms_median_of_all_candidates"], 1) << " ms, "
     << fixed(summary["candidates_within_20ms_pct"], 0) << "% within 20 ms). Configurations that make one plan "
     << "(kernels/plan_identity.h; e.g. heavy_light thresholds longer than every row) are ranked as one, as the tuner "
     << "measures them once: the first in the truth's order stands for the others.\n";
}

// The source's commit, "+uncommitted" when the tree differs from it; "?" outside a checkout.
std::string commit_of() {
  auto read = [](const char* cmd) {
    std::string text;
    if (FILE* f = popen(cmd, "r")) {
      char buf[128];
      while (fgets(buf, sizeof buf, f)) text += buf;
      pclose(f);
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  };
  const std::string head = read("git rev-parse --short HEAD 2>/dev/null");
  if (head.empty()) return "?";
  return read("git status --porcelain --untracked-files=no 2>/dev/null").empty() ? head : head + "+uncommitted";
}

}  // namespace

// The ground truth: one file, or every .json file of a directory (a dense family's shapes, one
// file each), their workloads together under the first one's meta.
json read_truth(const std::string& path) {
  std::vector<std::string> files;
  if (fs::is_directory(path)) {
    for (const fs::directory_entry& e : fs::directory_iterator(path))
      if (e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw std::runtime_error("no .json ground truth under " + path);
  } else {
    files = {path};
  }
  json truth;
  for (const std::string& f : files) {
    std::ifstream file(f);
    if (!file) throw std::runtime_error("cannot read " + f + " (--truth FILE|DIR; run from the repository root)");
    json part = json::parse(file);
    if (truth.is_null()) {
      truth = std::move(part);
    } else {
      for (json& w : part["workloads"]) truth["workloads"].push_back(std::move(w));
    }
  }
  return truth;
}

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  const json truth = read_truth(o.truth);
  GpuSpec gpu = bench::measured_device(truth["meta"]["device"]);
  std::string clock_source = "device max clock from the truth's meta";
  if (!o.calibration.empty()) {
    std::ifstream file(o.calibration);
    if (!file) throw std::runtime_error("cannot read calibration " + o.calibration);
    apply_calibration(gpu, Calibration::from_json(json::parse(file)));
    clock_source = "calibration " + o.calibration;
  }
  if (o.clock_ghz > 0) {
    gpu.clock_ghz = o.clock_ghz;
    clock_source = "--clock-ghz";
  }
  const std::string family_name = o.family.empty() ? bench::truth_family(truth["meta"]) : o.family;
  const KernelFamily* family = find_family(family_name);
  if (!family) throw std::runtime_error("no kernel family '" + family_name + "' (--family NAME)");

  std::vector<Case> cases;
  for (const json& entry : truth["workloads"]) {
    const std::string dtype = entry["dtype"];
    if (!bench::selected(o.only, entry["workload"]) ||
        std::find(o.dtypes.begin(), o.dtypes.end(), dtype) == o.dtypes.end())
      continue;
    // Older SpMV truths carry no "problem": the family's defaults.
    const json params = entry.value("problem", json());
    cases.push_back({&entry, make_problem(*family, params, Precision::uniform(dtype_from_string(dtype)))});
  }

  const auto compile_start = Clock::now();
  const Kernels kernels = compile_all(*family, cases, gpu.arch);
  std::cerr << "compiled " << kernels.size() << " " << family->name() << " kernels in "
            << std::chrono::duration<double>(Clock::now() - compile_start).count() << " s\n";

  json results = json::array();
  std::map<std::string, Workload> loaded;
  for (const Case& c : cases) {
    const std::string name = (*c.entry)["workload"];
    if (!loaded.count(name)) {
      loaded.clear();  // one large matrix in memory at a time
      std::optional<Workload> w = load_workload(o, *family, name);
      if (!w) continue;
      loaded.emplace(name, std::move(*w));
    }
    results.push_back(evaluate_workload(c, loaded.at(name), *family, kernels, gpu, o));
    const json& r = results.back();
    std::cerr << case_name(r) << " " << r["dtype"].get<std::string>() << ": spearman " << fixed(r["spearman"], 2) << ", best rank "
              << r["best_rank_in_prediction"] << ", geomean err " << fixed(r["geomean_rel_error"], 2) << ", "
              << fixed(r["emulate_ms_mean"], 1) << " ms/candidate\n";
  }
  const json summary = summarise(results);
  const json meta = {{"truth", o.truth},
                     {"family", family->name()},
                     {"device", truth["meta"]["device"].value("name", std::string("?"))},
                     {"samples", std::to_string(o.samples.heaviest) + " heaviest + " + std::to_string(o.samples.random) + " random (+ " +
                                     std::to_string(o.samples.longest) + " longest by span in row-block launches; traced to " +
                                     std::to_string(o.trace_budget > 0 ? o.trace_budget
                                                                      : CandidateEmulationOptions{}.max_traced_warp_instructions_per_launch) +
                                     " warp instructions a launch)"},
                     {"host", std::to_string(std::thread::hardware_concurrency()) + " hardware threads"},
                     {"clock_ghz", gpu.clock_ghz},
                     {"clock_source", clock_source},
                     {"timing_source", gpu.timing_source},
                     {"small_only", o.small}};
  if (!o.json_out.empty()) std::ofstream(o.json_out) << json{{"meta", meta}, {"summary", summary}, {"workloads", results}}.dump(1);
  if (!o.md_out.empty()) {
    std::ofstream md(o.md_out);
    write_markdown(md, meta, results, summary);
  }
  write_markdown(std::cout, meta, results, summary);
  if (!o.predictions_out.empty()) {
    std::string command = "emulator_accuracy";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
    json workloads = json::array();
    for (json& r : results)
      workloads.push_back({{"workload", r["workload"]}, {"problem", r["problem"]}, {"dtype", r["dtype"]},
                           {"configs", std::move(r["predictions"])}});
    const json out = {{"meta", {{"device", meta["device"]}, {"family", meta["family"]}, {"commit", commit_of()}, {"command", command},
                                {"clock", {{"ghz", gpu.clock_ghz}, {"source", clock_source}}},
                                {"timing_source", gpu.timing_source}}},
                      {"workloads", workloads}};
    std::ofstream(o.predictions_out) << out.dump(1) << "\n";
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "emulator_accuracy: " << e.what() << "\n";
  return 1;
}
