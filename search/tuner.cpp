#include "search/tuner.h"

#include <algorithm>
#include <chrono>
#include <future>

#include "search/first_model_oracle.h"
#include "search/gpu_backend.h"
#include "search/saake_walk.h"
#include "search/technique_factory.h"
#include "search/tuning_loop.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// Before compiling, the model assumes a typical register count; compiled candidates get theirs.
ResourceUsage assumed_usage() {
  ResourceUsage u;
  u.registers = 32;
  return u;
}

// The model's prediction, or nothing when the configuration cannot launch on this GPU
// (a block does not fit on an SM with these resources).
std::optional<Prediction> try_predict(const WorkEstimate& work, const ResourceUsage& usage, const GpuSpec& gpu) {
  try {
    return predict(work, usage, gpu);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

// Model-only progress: compiled candidates stand for measured ones, the best is predicted.
void report_model_progress(TuneObserver& observer, const TuneOutcome& outcome, int done, int planned,
                           std::chrono::steady_clock::time_point start) {
  TuneProgress p;
  p.phase = done == planned ? "done" : "model";
  p.measured = done;
  p.planned = planned;
  if (outcome.best) {
    p.best_us = outcome.best->prediction.time_us;
    p.best_config = outcome.best->config_key;
  }
  p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  p.eta_s = p.elapsed_s / done * (planned - done);
  observer.progress(p);
}

}  // namespace

CompileRequest Tuner::compile_request(const KernelFamily& family, const Config& config, Dtype dtype) const {
  KernelSource src = family.source(config, dtype);
  CompileRequest req;
  req.code = std::move(src.code);
  req.entries = std::move(src.entries);
  req.options = std::move(src.options);
  req.arch = ctx_.gpu.arch;
  return req;
}

bool Tuner::can_measure() const { return ctx_.measurer != nullptr && ctx_.measurer->available(); }

TuneOutcome Tuner::run(const Workload& workload, const TuneRequest& request, TuneObserver& observer) const {
  const KernelFamily& family = *request.family;
  const ParameterSpace space = family.space();
  std::vector<CandidateOutcome> ranked;
  for (Config& config : space.enumerate()) {
    CandidateOutcome c;
    c.config_key = space.canonical(config);
    std::optional<Prediction> p = try_predict(family.estimate(workload, config, request.dtype), assumed_usage(), ctx_.gpu);
    if (!p) continue;
    c.prediction = *p;
    c.config = std::move(config);
    ranked.push_back(std::move(c));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const CandidateOutcome& a, const CandidateOutcome& b) {
    return a.prediction.time_us < b.prediction.time_us;
  });
  TuneOutcome outcome = can_measure() ? run_measured(workload, request, std::move(ranked), observer)
                                      : run_model_only(workload, request, std::move(ranked), observer);
  return outcome;
}

TuneOutcome Tuner::run_model_only(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                                  TuneObserver& observer) const {
  TuneOutcome outcome;
  outcome.candidates_considered = static_cast<int>(ranked.size());
  const size_t n = std::min(ranked.size(), static_cast<size_t>(std::max(1, r.budget.model_compiles)));
  observer.planned(static_cast<int>(n));
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::future<std::shared_ptr<const CompiledKernel>>> compiles;
  for (size_t i = 0; i < n; ++i) {
    CompileRequest req = compile_request(*r.family, ranked[i].config, r.dtype);
    compiles.push_back(ctx_.compile_pool->submit([cache = ctx_.compile_cache, req] { return cache->get(req); }));
  }
  for (size_t i = 0; i < n; ++i) {
    CandidateOutcome& c = ranked[i];
    c.kernel = compiles[i].get();
    std::optional<Prediction> p;
    if (c.kernel->ok) p = try_predict(r.family->estimate(w, c.config, r.dtype), combined_usage(*c.kernel), ctx_.gpu);
    if (p) {
      c.prediction = *p;
      if (!outcome.best || c.prediction.time_us < outcome.best->prediction.time_us) outcome.best = c;
    }
    observer.finished_one(c);
    report_model_progress(observer, outcome, static_cast<int>(i + 1), static_cast<int>(n), start);
    if (observer.cancelled()) break;
  }
  return outcome;
}

std::optional<Config> Tuner::model_walk(const Workload& w, const TuneRequest& r) const {
  FirstModelOracle oracle(*r.family, w, r.dtype, ctx_.gpu, assumed_usage());
  const std::vector<SaakeWalk> walks = saake_search(oracle, r.family->canonical_moves());
  if (walks.empty()) return std::nullopt;
  return walks.front().best;
}

TuneOutcome Tuner::run_measured(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                                TuneObserver& observer) const {
  const ParameterSpace space = r.family->space();
  // SAAKE's pick first (the seed of digest-000 §2.10), then the model's favourite.
  std::vector<Config> seeds;
  if (std::optional<Config> walked = model_walk(w, r)) seeds.push_back(*walked);
  if (!ranked.empty()) seeds.push_back(ranked.front().config);

  TechniqueContext context;
  context.space = &space;
  for (const CandidateOutcome& c : ranked) context.model_ranked.push_back(c.config);
  context.predict_us = [this, &w, &r](const Config& c) -> std::optional<double> {
    std::optional<Prediction> p = try_predict(r.family->estimate(w, c, r.dtype), assumed_usage(), ctx_.gpu);
    return p ? std::optional<double>(p->time_us) : std::nullopt;
  };
  std::unique_ptr<Technique> technique = make_search_technique(context);

  const Config plan_config = ranked.empty() ? Config{} : ranked.front().config;
  GpuLoopBackend backend(*r.family, w, r.dtype, r.hot, ctx_.gpu, *ctx_.compile_cache, *ctx_.measurer,
                         [this, &r](const Config& c) { return compile_request(*r.family, c, r.dtype); }, plan_config);
  LoopSettings settings;
  settings.budget = r.budget;
  settings.target_speedup = r.target_speedup;
  settings.seed = r.seed;
  settings.lookahead = ctx_.lookahead;
  settings.finalists = ctx_.finalists;
  settings.finalist_rounds = ctx_.finalist_rounds;
  settings.space_size = static_cast<int>(ranked.size());
  if (settings.space_size <= ctx_.exhaustive_limit) {  // every configuration: no early stop
    settings.budget.measurements = std::max(1, *settings.space_size);
    settings.budget.patience = settings.budget.measurements + 1;
    settings.target_speedup.reset();
  }
  TuneOutcome outcome = run_tuning_loop(space, seeds, *technique, backend, *ctx_.compile_pool, settings, observer);
  outcome.candidates_considered = static_cast<int>(ranked.size());
  return outcome;
}

}  // namespace ktune
