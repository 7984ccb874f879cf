#include "search/tuning_loop.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <limits>
#include <map>
#include <set>
#include <string_view>

#include "search/candidate_order.h"

namespace ktune {

CandidateOutcome candidate_before_measuring(LoopBackend& backend, const Config& config, std::string key,
                                            std::shared_ptr<const CompiledKernel> kernel) {
  CandidateOutcome c;
  c.config = config;
  c.config_key = std::move(key);
  c.kernel = std::move(kernel);
  if (!c.kernel || !c.kernel->ok) {
    c.measurement = Measurement{MeasureStatus::LaunchError, 0, 0, 0, 0,
                                "compile failed: " + (c.kernel ? c.kernel->log : std::string("no kernel"))};
    return c;
  }
  // Checked after compiling, before anything runs: a violating candidate is never launched.
  if (const std::string why = backend.launch_violation(c.config, *c.kernel); !why.empty()) {
    c.measurement = Measurement{MeasureStatus::LaunchError, 0, 0, 0, 0, "refused before launch: " + why};
    return c;
  }
  if (std::optional<Prediction> prediction = backend.predict(c.config, *c.kernel)) c.prediction = *prediction;
  return c;
}

namespace {

using Clock = std::chrono::steady_clock;
using KernelFuture = std::future<std::shared_ptr<const CompiledKernel>>;

// Times a technique may propose something already in flight before the loop waits instead.
constexpr int kProposalRetries = 16;

// The message of a measurement carried over from an identical plan: this, that plan's key, and
// ": " with its own message if it had one; what a restarted job reads back to treat it alike.
constexpr std::string_view kSamePlanAs = "same plan as ";

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Pending {
  Config config;
  std::string key;
  std::string technique;
  KernelFuture kernel;
};

// One measurement from several of the same kernel: the median of their medians, with a noise
// that covers both each run's spread and the drift between runs.
Measurement combine(const std::vector<Measurement>& samples) {
  std::vector<double> medians;
  Measurement out = samples.front();
  out.count = 0;
  for (const Measurement& m : samples) {
    medians.push_back(m.median_us);
    out.iqr_us = std::max(out.iqr_us, m.iqr_us);
    out.max_rel_error = std::max(out.max_rel_error, m.max_rel_error);
    out.count += m.count;
  }
  std::sort(medians.begin(), medians.end());
  const size_t n = medians.size();
  out.median_us = n % 2 ? medians[n / 2] : 0.5 * (medians[n / 2 - 1] + medians[n / 2]);
  out.iqr_us = std::max(out.iqr_us, 0.5 * (medians.back() - medians.front()));
  return out;
}

class Loop {
 public:
  Loop(const ParameterSpace& space, const std::vector<Config>& seeds, Technique& technique, LoopBackend& backend,
       ThreadPool& pool, const LoopSettings& settings, TuneObserver& observer)
      : space_(space), seeds_(seeds.begin(), seeds.end()), technique_(technique), backend_(backend), pool_(pool),
        settings_(settings), observer_(observer), store_(space), rng_(settings.seed),
        // A resumed job's clock starts where the interrupted run stopped.
        start_(Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(observer.previous_elapsed_seconds()))) {}

  // A stopped search leaves compiles in the pool: tell them to skip, and wait for them, since
  // they use the backend.
  ~Loop() {
    *abandoned_ = true;
    for (Pending& p : pending_)
      if (p.kernel.valid()) p.kernel.wait();
  }

  TuneOutcome run();

 private:
  bool propose_one();
  void refill();
  CandidateOutcome take(Pending& p);
  void account(const CandidateOutcome& c, const std::string& technique);
  std::string stop_reason() const;
  void remeasure_finalists();
  void measure_default();
  void report(const std::string& phase);

  const ParameterSpace& space_;
  std::deque<Config> seeds_;
  Technique& technique_;
  LoopBackend& backend_;
  ThreadPool& pool_;
  const LoopSettings& settings_;
  TuneObserver& observer_;
  ResultsStore store_;
  Rng rng_;
  std::shared_ptr<std::atomic<bool>> abandoned_ = std::make_shared<std::atomic<bool>>(false);
  std::deque<Pending> pending_;
  std::set<std::string> pending_keys_;
  int proposed_ = 0, measured_ = 0, planned_ = 0, since_improvement_ = 0;
  int finalist_measurements_ = 0;  // planned re-measurements
  std::vector<CandidateOutcome> history_;  // measured ok, in landing order
  // By plan identity: the first configuration measured of it (key) and its measurement.
  std::map<std::string, std::pair<std::string, Measurement>> measured_plans_;
  int new_measurements_ = 0;       // not replayed: what the ETA is based on
  double new_measure_seconds_ = 0;
  std::optional<double> vendor_us_;
  Clock::time_point start_;
  TuneOutcome outcome_;
};

bool Loop::propose_one() {
  auto enqueue = [this](Config config, const std::string& technique) {
    std::string key = space_.canonical(config);
    pending_keys_.insert(key);
    auto abandoned = abandoned_;
    KernelFuture kernel = pool_.submit([&backend = backend_, config, abandoned] {
      return *abandoned ? std::shared_ptr<const CompiledKernel>() : backend.compile(config);
    });
    pending_.push_back(Pending{std::move(config), std::move(key), technique, std::move(kernel)});
    ++proposed_;
  };
  auto fresh = [this](const Config& c) {
    return space_.valid(c) && !store_.seen(c) && !pending_keys_.count(space_.canonical(c));
  };
  while (!seeds_.empty()) {
    Config seed = std::move(seeds_.front());
    seeds_.pop_front();
    if (fresh(seed)) {
      enqueue(std::move(seed), "seed");
      return true;
    }
  }
  for (int attempt = 0; attempt < kProposalRetries; ++attempt) {
    std::optional<Config> c = technique_.propose(store_, rng_);
    if (!c) return false;
    if (fresh(*c)) {
      enqueue(std::move(*c), technique_.name());
      return true;
    }
  }
  return false;  // only proposals already in flight: wait for their results
}

void Loop::refill() {
  while (static_cast<int>(pending_.size()) < std::max(1, settings_.lookahead) &&
         proposed_ < settings_.budget.measurements && propose_one()) {
  }
}

CandidateOutcome Loop::take(Pending& p) {
  const Clock::time_point began = Clock::now();
  CandidateOutcome c = candidate_before_measuring(backend_, p.config, p.key, p.kernel.get());
  if (c.measurement) return c;
  if (std::optional<Measurement> previous = observer_.previous_measurement(c.config_key)) {
    c.measurement = previous;  // committed before a restart: replayed, not measured again
    if (previous->message.rfind(kSamePlanAs, 0) == 0) {
      const std::string rest = previous->message.substr(kSamePlanAs.size());
      c.same_plan_as = rest.substr(0, rest.find(": "));
    }
    return c;
  }
  const std::string plan = backend_.plan_identity(c.config, *c.kernel);
  if (const auto same = measured_plans_.find(plan); !plan.empty() && same != measured_plans_.end()) {
    c.measurement = same->second.second;
    c.same_plan_as = same->second.first;
    const std::string& why = same->second.second.message;
    c.measurement->message = std::string(kSamePlanAs) + c.same_plan_as + (why.empty() ? "" : ": " + why);
    return c;
  }
  c.measurement = backend_.measure(c.config, *c.kernel);
  ++new_measurements_;
  new_measure_seconds_ += seconds_since(began);
  if (!plan.empty()) measured_plans_.emplace(plan, std::make_pair(c.config_key, *c.measurement));
  return c;
}

// Records a landed candidate everywhere: the store the techniques share, the observer, the
// best so far and the convergence count.
void Loop::account(const CandidateOutcome& c, const std::string& technique) {
  const double time = c.measured_ok() ? c.measurement->median_us : std::numeric_limits<double>::infinity();
  store_.record(c.config, time, technique);
  technique_.observe(*store_.find(c.config));
  observer_.finished_one(c);
  if (!c.same_plan_as.empty()) {
    --proposed_;  // its slot in the budget goes to the next proposal
    return;
  }
  ++measured_;
  if (c.measured_ok()) history_.push_back(c);
  if (!c.measured_ok()) {
    ++since_improvement_;
  } else if (!outcome_.best) {
    outcome_.best = c;
    since_improvement_ = 0;
  } else {
    const Measurement& best = *outcome_.best->measurement;
    // Only a gain beyond the noise resets the count: ties do not keep a search alive.
    const bool improved = time < best.median_us - measurement_noise(*c.measurement, best);
    since_improvement_ = improved ? 0 : since_improvement_ + 1;
    if (better_measured(c, *outcome_.best)) outcome_.best = c;
  }
}

std::string Loop::stop_reason() const {
  if (observer_.cancelled()) return "cancelled";
  if (measured_ >= settings_.budget.measurements) return "budget";
  if (settings_.target_speedup && vendor_us_ && outcome_.best &&
      *vendor_us_ >= *settings_.target_speedup * outcome_.best->measurement->median_us)
    return "target";
  if (since_improvement_ >= std::max(1, settings_.budget.patience)) return "converged";
  if (seconds_since(start_) > settings_.budget.seconds) return "seconds";
  return "";
}

void Loop::report(const std::string& phase) {
  TuneProgress p;
  p.phase = phase;
  p.measured = measured_;
  p.planned = std::max(planned_, measured_);
  if (outcome_.best) {
    p.best_us = outcome_.best->measurement->median_us;
    p.best_config = outcome_.best->config_key;
  }
  p.vendor_us = vendor_us_;
  p.elapsed_s = seconds_since(start_);
  p.stop_reason = outcome_.stop_reason;
  if (phase == "done") {
    p.eta_s = 0;
  } else if (new_measurements_ > 0) {
    const double per = new_measure_seconds_ / new_measurements_;
    double eta = per * (p.planned - p.measured);
    // The search cannot outlast its time budget; the finalists come after it.
    if (phase == "search") eta = std::min(eta, std::max(0.0, settings_.budget.seconds - p.elapsed_s) + per * finalist_measurements_);
    p.eta_s = eta;
  }
  observer_.progress(p);
}

void Loop::remeasure_finalists() {
  std::vector<CandidateOutcome> finalists = history_;
  std::stable_sort(finalists.begin(), finalists.end(), better_measured);
  finalists.resize(std::min(finalists.size(), static_cast<size_t>(std::max(0, settings_.finalists))));
  if (finalists.size() < 2 || settings_.finalist_rounds <= 0) {
    planned_ = measured_;
    outcome_.finalists = finalists;
    return;
  }
  std::vector<std::vector<Measurement>> samples(finalists.size());
  for (size_t i = 0; i < finalists.size(); ++i) samples[i].push_back(*finalists[i].measurement);
  // A B C A B C ...: a slow drift of clocks or temperature shifts every finalist alike.
  for (int round = 0; round < settings_.finalist_rounds && !observer_.cancelled(); ++round) {
    for (size_t i = 0; i < finalists.size(); ++i) {
      Measurement m;
      if (std::optional<Measurement> stored = observer_.previous_finalist(finalists[i].config_key, round)) {
        m = *stored;
        ++measured_;
      } else {
        const Clock::time_point began = Clock::now();
        m = backend_.measure(finalists[i].config, *finalists[i].kernel);
        ++measured_, ++new_measurements_;
        new_measure_seconds_ += seconds_since(began);
        observer_.finalist_measured(finalists[i].config_key, round, m);
      }
      if (m.status == MeasureStatus::Ok) samples[i].push_back(m);
      report("finalists");
    }
  }
  for (size_t i = 0; i < finalists.size(); ++i) finalists[i].measurement = combine(samples[i]);
  std::stable_sort(finalists.begin(), finalists.end(), better_measured);
  outcome_.best = finalists.front();
  outcome_.finalists = std::move(finalists);
}

// The default configuration's time, for "tuned vs default": reused when the search measured it,
// measured now (counted, and eligible to win) when it did not; not past the time budget.
void Loop::measure_default() {
  if (!settings_.default_config || !outcome_.best || outcome_.stop_reason == "seconds" || observer_.cancelled()) return;
  const Config config = *settings_.default_config;
  const std::string key = space_.canonical(config);
  for (const auto* list : {&outcome_.finalists, &history_})
    for (const CandidateOutcome& c : *list)
      if (c.config_key == key) {
        outcome_.untuned_default = c;
        return;
      }
  auto abandoned = abandoned_;
  Pending p{config, key, "default", pool_.submit([&backend = backend_, config, abandoned] {
              return *abandoned ? std::shared_ptr<const CompiledKernel>() : backend.compile(config);
            })};
  CandidateOutcome c = take(p);
  account(c, p.technique);
  if (c.same_plan_as.empty()) ++outcome_.measurements;
  outcome_.untuned_default = c;
}

TuneOutcome Loop::run() {
  outcome_.measured = true;
  if (auto stored = observer_.previous_vendor()) {
    outcome_.vendor = std::move(*stored);
  } else {
    outcome_.vendor = backend_.vendor();
    observer_.vendor_measured(outcome_.vendor);
  }
  for (const VendorTiming& v : outcome_.vendor)
    if (v.measurement.status == MeasureStatus::Ok && (!vendor_us_ || v.measurement.median_us < *vendor_us_))
      vendor_us_ = v.measurement.median_us;
  const int search_planned = std::min(settings_.budget.measurements, settings_.space_size.value_or(settings_.budget.measurements));
  finalist_measurements_ = std::min(settings_.finalists, search_planned) >= 2 ? std::min(settings_.finalists, search_planned) * std::max(0, settings_.finalist_rounds) : 0;
  planned_ = search_planned + finalist_measurements_;
  observer_.planned(planned_);
  report("search");

  refill();
  while (outcome_.stop_reason.empty()) {
    if (observer_.cancelled()) {
      outcome_.stop_reason = "cancelled";
      break;
    }
    if (pending_.empty()) {
      outcome_.stop_reason = "exhausted";
      break;
    }
    Pending next = std::move(pending_.front());
    pending_.pop_front();
    CandidateOutcome c = take(next);
    pending_keys_.erase(next.key);
    account(c, next.technique);
    outcome_.stop_reason = stop_reason();
    if (outcome_.stop_reason.empty()) refill();
    report("search");
  }
  outcome_.measurements = measured_;
  // Out of time or cancelled: no finalist rounds. Otherwise the plan shrinks to what the
  // search did, and the finalists are what remains of it.
  if (outcome_.stop_reason == "cancelled" || outcome_.stop_reason == "seconds") finalist_measurements_ = 0;
  planned_ = measured_ + finalist_measurements_;
  if (finalist_measurements_ > 0) remeasure_finalists();
  measure_default();
  if (observer_.cancelled()) outcome_.stop_reason = "cancelled";
  report("done");
  return outcome_;
}

}  // namespace

TuneOutcome run_tuning_loop(const ParameterSpace& space, const std::vector<Config>& seeds, Technique& technique,
                            LoopBackend& backend, ThreadPool& pool, const LoopSettings& settings,
                            TuneObserver& observer) {
  Loop loop(space, seeds, technique, backend, pool, settings, observer);
  return loop.run();
}

}  // namespace ktune
