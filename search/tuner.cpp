#include "search/tuner.h"

#include <algorithm>
#include <chrono>
#include <future>

#include "workload/input_error.h"

namespace ktune {
namespace {

// ptxas usage summed over a plan's entries: registers and shared memory of the largest entry.
ResourceUsage combined_usage(const CompiledKernel& kernel) {
  ResourceUsage total;
  for (const auto& [entry, u] : kernel.usage) {
    total.registers = std::max(total.registers, u.registers);
    total.shared_bytes = std::max(total.shared_bytes, u.shared_bytes);
    total.stack_bytes = std::max(total.stack_bytes, u.stack_bytes);
    total.spill_stores += u.spill_stores;
    total.spill_loads += u.spill_loads;
  }
  return total;
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

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

bool better_measured(const CandidateOutcome& a, const CandidateOutcome& b) {
  const double ta = a.measurement->median_us, tb = b.measurement->median_us;
  // Two medians closer than the larger IQR-derived noise are a statistical tie.
  const double noise = std::max({a.measurement->iqr_us, b.measurement->iqr_us, 0.005 * std::min(ta, tb)});
  if (std::abs(ta - tb) > noise) return ta < tb;
  const int ra = a.kernel ? combined_usage(*a.kernel).registers : 0;
  const int rb = b.kernel ? combined_usage(*b.kernel).registers : 0;
  if (ra != rb) return ra < rb;
  return a.config_key < b.config_key;
}

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
    if (observer.cancelled()) break;
  }
  return outcome;
}

TuneOutcome Tuner::run_measured(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                                TuneObserver& observer) const {
  const auto start = std::chrono::steady_clock::now();
  TuneOutcome outcome;
  outcome.measured = true;
  outcome.candidates_considered = static_cast<int>(ranked.size());
  const size_t limit = ranked.size() <= static_cast<size_t>(ctx_.exhaustive_limit)
                           ? ranked.size()
                           : std::min(ranked.size(), static_cast<size_t>(std::max(1, r.budget.measurements)));
  ranked.resize(limit);
  observer.planned(static_cast<int>(limit));

  // Compilation runs ahead in the pool while the GPU measures in model order.
  std::vector<std::future<std::shared_ptr<const CompiledKernel>>> compiles;
  for (const CandidateOutcome& c : ranked) {
    CompileRequest req = compile_request(*r.family, c.config, r.dtype);
    compiles.push_back(ctx_.compile_pool->submit([cache = ctx_.compile_cache, req] { return cache->get(req); }));
  }
  const std::vector<double> reference = r.family->reference(w);
  std::vector<int32_t> row_lengths(static_cast<size_t>(w.matrix.rows));
  for (int32_t i = 0; i < w.matrix.rows; ++i) row_lengths[static_cast<size_t>(i)] = w.matrix.row_length(i);
  MeasureOptions options;
  options.hot = r.hot;
  std::optional<LaunchPlan> previous_plan;  // lends its inputs to the next configuration's plan

  for (size_t i = 0; i < ranked.size(); ++i) {
    CandidateOutcome& c = ranked[i];
    c.kernel = compiles[i].get();
    if (observer.cancelled() || seconds_since(start) > r.budget.seconds) break;
    if (!c.kernel->ok) {
      c.measurement = Measurement{MeasureStatus::LaunchError, 0, 0, 0, 0, "compile failed: " + c.kernel->log};
    } else if (auto previous = observer.previous_measurement(c.config_key)) {
      c.measurement = previous;
    } else {
      if (auto p = try_predict(r.family->estimate(w, c.config, r.dtype), combined_usage(*c.kernel), ctx_.gpu))
        c.prediction = *p;
      LaunchPlan plan = previous_plan ? r.family->prepare_next(w, c.config, r.dtype, *previous_plan)
                                      : r.family->prepare(w, c.config, r.dtype);
      c.measurement = ctx_.measurer->measure(*c.kernel, plan, reference, row_lengths, r.dtype, options);
      previous_plan = std::move(plan);
    }
    if (c.measured_ok() && (!outcome.best || better_measured(c, *outcome.best))) outcome.best = c;
    observer.finished_one(c);
  }
  if (r.family->name() == "spmv" && !ranked.empty() && !observer.cancelled()) {
    // Same matrix and x as every candidate; the worker already holds these buffers.
    const LaunchPlan vendor_plan = previous_plan ? r.family->prepare_next(w, ranked.front().config, r.dtype, *previous_plan)
                                                 : r.family->prepare(w, ranked.front().config, r.dtype);
    for (const char* alg : {"csr_alg1", "csr_alg2"}) {
      Measurement m = ctx_.measurer->measure_cusparse_spmv(vendor_plan, w.matrix.rows, w.matrix.cols, w.matrix.nnz(),
                                                           reference, r.dtype, alg, options);
      outcome.vendor.push_back({std::string("cusparse-") + alg, m});
    }
  }
  return outcome;
}

}  // namespace ktune
