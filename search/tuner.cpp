#include "search/tuner.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <optional>

#include "kernels/host_bytes.h"
#include "model/saake/saake_prediction.h"
#include "search/emulator_oracle.h"
#include "search/explanation.h"
#include "search/first_model_oracle.h"
#include "search/gpu_backend.h"
#include "search/launch_check.h"
#include "search/model_ranking.h"
#include "search/saake_walk.h"
#include "search/technique_factory.h"
#include "search/tuning_loop.h"
#include "workload/cancellation.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The most configurations the first cost model ranks at the start of a tune.
constexpr size_t kFirstModelCandidates = 4096;
// What one walk may emulate, in configurations x the workload's nonzeros (a dense problem's
// multiply-adds): preparing and emulating a configuration of a matrix of 21 M nonzeros takes
// seconds, and unbounded walks there ran three minutes before the first measurement (an f64 GEMM
// of 1000^3, counted as no nonzeros, more than a minute). Counted rather than timed, so that a
// tune walks the same way on any host; a walk over a million nonzeros is not held back.
constexpr double kWalkNonzeroBudget = double(1 << 28);
constexpr size_t kMinWalkEmulations = 8;
// And in warp instructions interpreted: 2^24, about five seconds of a walk on one core. A
// looping plan traces the sampled blocks of every launch it times (its twins run the rest), at
// about 0.3 us a traced warp instruction with the timing: an SSSP candidate of pubmed interprets
// 1-8 M, and walks of twice the graph's programs' budget took 20-40 s on the H200's host.
constexpr uint64_t kWalkWarpInstructions = uint64_t{1} << 24;

double walk_size(const Workload& w, const TuneRequest& r) {
  if (w.kind == WorkloadKind::Dense) return r.family->flops(w, r.problem) / 2;
  return static_cast<double>(w.matrix.nnz());
}

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

// A compiled model-only candidate and, when the emulator could take it, its emulation.
struct Refined {
  std::shared_ptr<const CompiledKernel> kernel;
  std::optional<CandidatePrediction> emulated;
  std::string why;  // why not
};

}  // namespace

void Tuner::set_gpu(const GpuSpec& gpu) {
  auto next = std::make_shared<const GpuSpec>(gpu);
  std::lock_guard<std::mutex> lock(gpu_mutex_);
  gpu_ = std::move(next);
}

std::shared_ptr<const GpuSpec> Tuner::gpu() const {
  std::lock_guard<std::mutex> lock(gpu_mutex_);
  return gpu_;
}

CompileRequest Tuner::compile_request(const KernelFamily& family, const Problem& problem, const Config& config) const {
  KernelSource src = family.source(problem, config);
  CompileRequest req;
  req.code = std::move(src.code);
  req.entries = std::move(src.entries);
  req.options = std::move(src.options);
  req.arch = compile_arch(src, gpu()->arch);
  return req;
}

bool Tuner::can_measure() const { return ctx_.replay || (ctx_.measurer != nullptr && ctx_.measurer->available()); }

TuneOutcome Tuner::run(const Workload& workload, const TuneRequest& request, TuneObserver& observer) const {
  const KernelFamily& family = *request.family;
  const ParameterSpace space = family.space(request.problem);
  const std::shared_ptr<const GpuSpec> gpu = this->gpu();  // one spec for the whole tune
  const HostBytes::Keep keep_operands;  // the plans of the tune share each generated operand
  std::vector<CandidateOutcome> ranked;
  // The first model's estimate walks the whole matrix (O(nnz) for SpMV): on a large one the
  // space's estimates took a minute one after another, so they run side by side on the pool.
  // Every configuration of a small space; a seeded sample of one of 10^6 points and more, which
  // the model ranks and the search's techniques then move away from.
  const auto started = std::chrono::steady_clock::now();
  SpaceRng rng(request.seed);
  std::vector<Config> configs = space.sample(rng, kFirstModelCandidates);
  std::vector<std::future<std::optional<Prediction>>> predictions;
  PendingTasks pending_predictions(predictions);  // they hold references to this frame
  for (const Config& config : configs) {
    predictions.push_back(ctx_.compile_pool->submit([&family, &workload, &request, gpu, config] {
      throw_if_cancelled();
      return try_predict(family.estimate(workload, request.problem, config), assumed_usage(), *gpu);
    }));
  }
  for (size_t i = 0; i < configs.size(); ++i) {
    Config& config = configs[i];
    CandidateOutcome c;
    c.config_key = space.canonical(config);
    std::optional<Prediction> p = predictions[i].get();
    if (!p) continue;
    c.prediction = *p;
    c.config = std::move(config);
    ranked.push_back(std::move(c));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const CandidateOutcome& a, const CandidateOutcome& b) {
    return a.prediction.time_us < b.prediction.time_us;
  });
  spread_model_ties(ranked, request.seed);
  const double rank_seconds = seconds_since(started);
  TuneOutcome outcome = can_measure() ? run_measured(workload, request, std::move(ranked), *gpu, observer)
                                      : run_model_only(workload, request, std::move(ranked), *gpu, observer);
  outcome.phase_seconds["rank"] = rank_seconds;
  const auto explaining = std::chrono::steady_clock::now();
  if (outcome.best && !observer.cancelled())
    outcome.explanation =
        explain_candidate(family, workload, request.problem, *outcome.best, *gpu, ctx_.log, outcome.too_large_to_emulate);
  outcome.phase_seconds["explain"] = seconds_since(explaining);
  return outcome;
}

TuneOutcome Tuner::run_model_only(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                                  const GpuSpec& gpu, TuneObserver& observer) const {
  TuneOutcome outcome;
  outcome.candidates_considered = static_cast<int>(ranked.size());
  const size_t n = std::min(ranked.size(), static_cast<size_t>(std::max(1, r.budget.model_compiles)));
  observer.planned(static_cast<int>(n));
  const auto start = std::chrono::steady_clock::now();
  // The first model only picks which to compile; the emulator ranks them, in the pool
  // alongside the compiles (each emulation is independent and reads the workload only).
  std::vector<std::future<Refined>> refined;
  PendingTasks pending(refined);  // the tasks hold references to this frame
  for (size_t i = 0; i < n; ++i) {
    CompileRequest req = compile_request(*r.family, r.problem, ranked[i].config);
    refined.push_back(ctx_.compile_pool->submit([cache = ctx_.compile_cache, req, &w, &r, &gpu, &c = ranked[i]] {
      Refined out;
      out.kernel = cache->get(req);
      out.emulated = emulate_compiled(*r.family, w, r.problem, c.config, *out.kernel, gpu, false, &out.why);
      return out;
    }));
  }
  bool best_emulated = false;
  for (size_t i = 0; i < n; ++i) {
    CandidateOutcome& c = ranked[i];
    Refined x = refined[i].get();
    c.kernel = x.kernel;
    std::optional<Prediction> p;
    if (x.emulated) {
      p = to_prediction(*x.emulated, gpu);
    } else {
      if (ctx_.log && c.kernel->ok) ctx_.log("emulator: " + c.config_key + " ranked by the first cost model: " + x.why);
      // Not a configuration this workload refuses (a format it cannot take): those never run.
      if (c.kernel->ok && launch_violation(*r.family, w, r.problem, c.config, *c.kernel, gpu).empty())
        p = try_predict(r.family->estimate(w, r.problem, c.config), combined_usage(*c.kernel), gpu);
    }
    if (p) {
      c.prediction = *p;
      // Emulated candidates outrank first-model ones: the two models' times are not comparable.
      const bool emulated = x.emulated.has_value();
      if (!outcome.best || (emulated && !best_emulated) ||
          (emulated == best_emulated && c.prediction.time_us < outcome.best->prediction.time_us)) {
        outcome.best = c;
        best_emulated = emulated;
      }
    }
    observer.finished_one(c);
    report_model_progress(observer, outcome, static_cast<int>(i + 1), static_cast<int>(n), start);
    if (observer.cancelled()) break;  // the tasks still running end before this frame does
  }
  outcome.phase_seconds["emulate"] = seconds_since(start);
  return outcome;
}

std::optional<Config> Tuner::model_walk(const Workload& w, const TuneRequest& r) const {
  const std::shared_ptr<const GpuSpec> gpu = this->gpu();
  FirstModelOracle first(*r.family, w, r.problem, *gpu, assumed_usage());
  EmulatorOracle oracle(*r.family, w, r.problem, *gpu, compiler_for(r), first, ctx_.log);
  return walk(w, r, *gpu, oracle);
}

EmulatorOracle::Compile Tuner::compiler_for(const TuneRequest& r) const {
  return [this, &r](const Config& c) { return ctx_.compile_cache->get(compile_request(*r.family, r.problem, c)); };
}

std::optional<Config> Tuner::walk(const Workload& w, const TuneRequest& r, const GpuSpec& gpu, EmulatorOracle& into) const {
  const CanonicalMoves moves = r.family->canonical_moves(r.problem);
  if (moves.starts.empty()) return std::nullopt;
  const LaunchPlan shared = r.family->prepare(w, r.problem, moves.starts.front());
  std::vector<std::unique_ptr<FirstModelOracle>> firsts;
  std::vector<std::unique_ptr<EmulatorOracle>> oracles;
  for (size_t i = 0; i < moves.starts.size(); ++i) {
    firsts.push_back(std::make_unique<FirstModelOracle>(*r.family, w, r.problem, gpu, assumed_usage()));
    oracles.push_back(std::make_unique<EmulatorOracle>(*r.family, w, r.problem, gpu, compiler_for(r), *firsts.back(), ctx_.log));
    oracles.back()->share_inputs(shared);
    oracles.back()->set_emulation_budget(
        std::max(kMinWalkEmulations, static_cast<size_t>(kWalkNonzeroBudget / std::max(1.0, walk_size(w, r)))),
        kWalkWarpInstructions);
  }
  into.share_inputs(shared);
  // One start emulated first: when its program is too large, so are the others' (they follow
  // the same data), and the walks go straight to the first model instead of each interpreting
  // 2^25 warp instructions in parallel before finding out.
  into.evaluate(moves.starts.front());
  for (std::unique_ptr<EmulatorOracle>& o : oracles) o->learn_size_from(into);
  const std::vector<SaakeWalk> walks =
      saake_search([&oracles](size_t i) -> SaakeOracle& { return *oracles[i]; }, moves, *ctx_.compile_pool);
  for (std::unique_ptr<EmulatorOracle>& o : oracles) into.absorb(std::move(*o));
  if (walks.empty()) return std::nullopt;
  return walks.front().best;
}

TuneOutcome Tuner::run_measured(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                                const GpuSpec& gpu, TuneObserver& observer) const {
  const ParameterSpace space = r.family->space(r.problem);
  FirstModelOracle first(*r.family, w, r.problem, gpu, assumed_usage());
  EmulatorOracle oracle(*r.family, w, r.problem, gpu, compiler_for(r), first, ctx_.log);
  auto phase = std::chrono::steady_clock::now();
  const std::optional<Config> walked = walk(w, r, gpu, oracle);
  const double walk_seconds = seconds_since(phase);
  phase = std::chrono::steady_clock::now();
  // The emulator re-ranks the first model's top few (the search compiles them first anyway),
  // side by side on the pool: one candidate of an SSSP over musae-github costs seconds.
  constexpr size_t kReRanked = 4;
  std::vector<std::unique_ptr<FirstModelOracle>> rerank_firsts;
  std::vector<std::unique_ptr<EmulatorOracle>> rerankers;
  std::vector<std::future<void>> reranked;
  for (size_t i = 0; i < std::min(kReRanked, ranked.size()); ++i) {
    if (oracle.emulation(ranked[i].config)) continue;  // the walks emulated it
    rerank_firsts.push_back(std::make_unique<FirstModelOracle>(*r.family, w, r.problem, gpu, assumed_usage()));
    rerankers.push_back(
        std::make_unique<EmulatorOracle>(*r.family, w, r.problem, gpu, compiler_for(r), *rerank_firsts.back(), ctx_.log));
    rerankers.back()->learn_size_from(oracle);
    reranked.push_back(ctx_.compile_pool->submit(
        [&o = *rerankers.back(), &c = ranked[i].config] { o.evaluate(c); }));
  }
  for (std::future<void>& f : reranked) f.get();
  for (std::unique_ptr<EmulatorOracle>& o : rerankers) oracle.absorb(std::move(*o));
  const double rerank_seconds = seconds_since(phase);

  TechniqueContext context;
  context.model_ranked = emulator_first(ranked, [&oracle](const Config& c) -> std::optional<double> {
    const CandidatePrediction* p = oracle.emulation(c);
    return p ? std::optional<double>(p->microseconds) : std::nullopt;
  });
  context.seed = walked;
  context.predict_us = [&w, &r, &gpu](const Config& c) -> std::optional<double> {
    std::optional<Prediction> p = try_predict(r.family->estimate(w, r.problem, c), assumed_usage(), gpu);
    return p ? std::optional<double>(p->time_us) : std::nullopt;
  };
  std::unique_ptr<Technique> technique = make_search_technique(context);
  // SAAKE's pick first (the seed of digest-000 §2.10), then the models' favourite.
  std::vector<Config> seeds;
  if (walked) seeds.push_back(*walked);
  if (!context.model_ranked.empty()) seeds.push_back(context.model_ranked.front());

  std::unique_ptr<LoopBackend> replayed = ctx_.replay ? ctx_.replay(w, r, gpu) : nullptr;
  std::optional<GpuLoopBackend> device;
  if (!replayed)
    device.emplace(*r.family, w, r.problem, r.hot, gpu, *ctx_.compile_cache, *ctx_.measurer,
                   [this, &r](const Config& c) { return compile_request(*r.family, r.problem, c); });
  LoopBackend& backend = replayed ? *replayed : static_cast<LoopBackend&>(*device);
  LoopSettings settings;
  settings.budget = r.budget;
  settings.target_speedup = r.target_speedup;
  settings.seed = r.seed;
  settings.lookahead = ctx_.lookahead;
  settings.finalists = ctx_.finalists;
  settings.finalist_rounds = ctx_.finalist_rounds;
  settings.space_size = static_cast<int>(ranked.size());
  settings.default_config = space.first_valid();
  if (settings.space_size <= ctx_.exhaustive_limit) {  // every configuration: no early stop
    settings.budget.measurements = std::max(1, *settings.space_size);
    settings.budget.patience = settings.budget.measurements + 1;
    settings.target_speedup.reset();
  }
  phase = std::chrono::steady_clock::now();
  TuneOutcome outcome = run_tuning_loop(space, seeds, *technique, backend, *ctx_.compile_pool, settings, observer);
  outcome.candidates_considered = static_cast<int>(ranked.size());
  const GpuLoopBackend::Spent spent = device ? device->spent() : GpuLoopBackend::Spent{};
  outcome.phase_seconds = {{"walk", walk_seconds},
                           {"rerank", rerank_seconds},
                           {"measure", seconds_since(phase)},
                           {"measure_reference", spent.reference},
                           {"measure_compile_wait", spent.compile},
                           {"measure_prepare", spent.prepare},
                           {"measure_worker", spent.worker}};
  outcome.too_large_to_emulate = oracle.too_large();
  return outcome;
}

}  // namespace ktune
