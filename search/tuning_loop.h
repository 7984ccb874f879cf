#pragma once
// The measured search (issue 5, part 4). Seeds first (the SAAKE walk's pick), then whatever
// the technique proposes; each proposal is compiled in the thread pool a few candidates
// ahead of the GPU, measured, recorded in the shared results store and committed through the
// observer as it lands. The search stops on its budget (measurements, seconds), on
// convergence (`patience` measurements without beating the best by more than the noise) or
// once the best is `target_speedup` times faster than the vendor. The finalists are then
// re-measured interleaved (A B C A B C ...) so that drift hits them alike, and ranked with
// better_measured. Everything is decided on the loop's thread in a fixed order, so the same
// seed and the same measurements give the same proposals: a restarted job replays its stored
// measurements (TuneObserver::previous_measurement) instead of measuring them again. A
// configuration whose plan is one already measured (LoopBackend::plan_identity) carries that
// measurement: it is recorded for the techniques, but spends no measurement of the budget,
// no patience, and is no finalist.
#include <memory>
#include <optional>
#include <vector>

#include "gpu/thread_pool.h"
#include "search/techniques/search_core.h"
#include "search/tune_types.h"

namespace ktune {

// What the loop needs from compilation, the model and the GPU; tests fake it.
class LoopBackend {
 public:
  virtual ~LoopBackend() = default;
  // Runs on compile-pool threads, several at once.
  virtual std::shared_ptr<const CompiledKernel> compile(const Config& config) = 0;
  // The model's prediction with the compiled resources; nothing when it cannot launch.
  virtual std::optional<Prediction> predict(const Config& config, const CompiledKernel& kernel) = 0;
  // Why the compiled configuration cannot launch on this device (ParameterSpace's hardware
  // constraints: registers, shared memory, threads per block); empty when it can.
  virtual std::string launch_violation(const Config& config, const CompiledKernel& kernel) { return ""; }
  // What identifies the work this configuration runs (kernels/plan_identity.h), on the loop's
  // thread before it is measured: configurations of one identity are measured once. Empty:
  // not known, always measured.
  virtual std::string plan_identity(const Config& config, const CompiledKernel& kernel) { return ""; }
  // Verifies and times one compiled configuration, on the loop's thread.
  virtual Measurement measure(const Config& config, const CompiledKernel& kernel) = 0;
  // The vendor's timings of the same operation; empty when the family has no vendor to beat.
  virtual std::vector<VendorTiming> vendor() = 0;
};

// A compiled configuration as the search takes it, short of its measurement: a failed compile,
// or a launch the device refuses, answers as a launch error (never run); otherwise the model's
// prediction with the compiled resources, and no measurement yet.
CandidateOutcome candidate_before_measuring(LoopBackend& backend, const Config& config, std::string key,
                                            std::shared_ptr<const CompiledKernel> kernel);

struct LoopSettings {
  TuneBudget budget;
  std::optional<double> target_speedup;
  uint64_t seed = 1;
  int lookahead = 3;              // compiled candidates kept ready ahead of the GPU
  int finalists = 3;              // the best few re-measured at the end ...
  int finalist_rounds = 2;        // ... this many more times each, interleaved
  std::optional<int> space_size;  // valid configurations, when known: caps the plan
  // The untuned configuration to time beside the answer ("tuned vs default"): reused when the
  // search measured it, else measured once after the search, on top of the budget.
  std::optional<Config> default_config;
};

TuneOutcome run_tuning_loop(const ParameterSpace& space, const std::vector<Config>& seeds, Technique& technique,
                            LoopBackend& backend, ThreadPool& pool, const LoopSettings& settings,
                            TuneObserver& observer);

}  // namespace ktune
