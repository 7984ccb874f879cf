#pragma once
// What a tuning run is asked for and what it reports, independent of HTTP and storage.
#include <atomic>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpu/compiled_kernel.h"
#include "gpu/measurer.h"
#include "kernels/kernel_family.h"
#include "model/first_cost_model.h"

namespace ktune {

struct TuneBudget {
  int measurements = 200;   // configurations timed on the GPU at most
  int model_compiles = 8;   // configurations compiled to refine the model-only ranking
  double seconds = 300;     // wall-clock cap of the whole run
  int patience = 16;        // converged: this many measurements without beating the best by more than its noise
};

struct TuneRequest {
  const KernelFamily* family = nullptr;
  Problem problem;  // canonical for the family (make_problem)
  TuneBudget budget;
  bool hot = false;  // time with a warm L2 instead of flushing it
  // Stop once the best is this many times faster than the vendor baseline (when there is one).
  std::optional<double> target_speedup;
  uint64_t seed = 1;  // the search's random seed: with the measurement history, its whole state
};

// One configuration's journey: compiled, predicted, perhaps measured.
struct CandidateOutcome {
  Config config;
  std::string config_key;  // ParameterSpace::canonical
  std::shared_ptr<const CompiledKernel> kernel;  // null when not compiled
  Prediction prediction;
  std::optional<Measurement> measurement;
  // Set when this configuration runs the same plan as one measured before it
  // (kernels/plan_identity.h): that one's key, whose measurement this one carries unmeasured.
  std::string same_plan_as;

  bool measured_ok() const { return measurement && measurement->status == MeasureStatus::Ok; }
};

struct VendorTiming {
  std::string name;  // e.g. "cusparse-csr-alg2"
  Measurement measurement;
};

// The emulator's account of the answer (issue 4): its predicted time, the bottleneck and the
// sensitivity vector of the chosen configuration. When the emulator cannot take the
// configuration, the first cost model's time and bottleneck, and no sensitivity.
struct Explanation {
  double predicted_us = 0;
  std::string resource;       // model/resource.h name: "dram", "l2", "fp32", ... ("launch" from the first model)
  std::string kind;           // "latency" | "throughput"
  std::string model;          // "emulator" | "first_model"
  nlohmann::json sensitivity;  // model/saake sensitivity_json; null without the analysis
};

struct TuneOutcome {
  std::optional<CandidateOutcome> best;  // empty when nothing compiled or verified
  std::vector<VendorTiming> vendor;
  bool measured = false;                 // best is a measured winner, not a prediction
  int candidates_considered = 0;
  int measurements = 0;                  // candidates the search measured (or replayed)
  std::string stop_reason;               // "budget", "seconds", "converged", "target", "exhausted", "cancelled"
  std::vector<CandidateOutcome> finalists;  // re-measured interleaved, fastest first
  // The family's untuned default (ParameterSpace::first_valid), measured in the same run: what
  // tuning gained over not tuning. Empty in model-only tunes and when cancelled.
  std::optional<CandidateOutcome> untuned_default;
  std::optional<Explanation> explanation;   // of best; empty when there is no best
  // Wall seconds of each phase of the tune, by name ("rank", "walk", "rerank", "measure",
  // "emulate", "explain"): where a slow tune's time went.
  std::map<std::string, double> phase_seconds;
  // Set when the workload proved too large for the emulator: the explanation does not retry it.
  std::optional<std::string> too_large_to_emulate;
};

// Where a running tune stands, for progress displays.
struct TuneProgress {
  std::string phase;           // "search", "finalists", "done"
  int measured = 0;            // candidates done, replayed ones included
  int planned = 0;             // candidates the budget allows, finalist re-measurements included
  std::optional<double> best_us;
  std::string best_config;     // its canonical key
  std::optional<double> vendor_us;  // the fastest vendor baseline
  double elapsed_s = 0;
  std::optional<double> eta_s;      // from the mean time per new measurement so far
  std::string stop_reason;          // set once the search stopped
};

// Hooks the tuner calls while it runs: persistence, progress, cancellation and resume.
class TuneObserver {
 public:
  virtual ~TuneObserver() = default;
  virtual void planned(int total) = 0;
  virtual void finished_one(const CandidateOutcome& candidate) = 0;
  virtual bool cancelled() = 0;
  // A measurement this job already committed before a restart; the tuner reuses it.
  virtual std::optional<Measurement> previous_measurement(const std::string& config_key) = 0;
  // The vendor baseline this job already measured before a restart (reused, not re-timed),
  // and the hook that commits a fresh one as soon as it is measured.
  virtual std::optional<std::vector<VendorTiming>> previous_vendor() { return std::nullopt; }
  virtual void vendor_measured(const std::vector<VendorTiming>&) {}
  // The same for the finalists' interleaved re-measurements (round r of a configuration) and
  // for the wall time already spent, which counts against the seconds budget after a restart.
  virtual std::optional<Measurement> previous_finalist(const std::string& config_key, int round) {
    return std::nullopt;
  }
  virtual void finalist_measured(const std::string& config_key, int round, const Measurement&) {}
  virtual double previous_elapsed_seconds() { return 0; }
  // Where the search stands, after every candidate; persisted for GET /v1/jobs/{id}.
  virtual void progress(const TuneProgress&) {}
};

}  // namespace ktune
