#pragma once
// What a tuning run is asked for and what it reports, independent of HTTP and storage.
#include <atomic>
#include <memory>
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
};

struct TuneRequest {
  const KernelFamily* family = nullptr;
  Dtype dtype = Dtype::F32;
  TuneBudget budget;
  bool hot = false;  // time with a warm L2 instead of flushing it
};

// One configuration's journey: compiled, predicted, perhaps measured.
struct CandidateOutcome {
  Config config;
  std::string config_key;  // ParameterSpace::canonical
  std::shared_ptr<const CompiledKernel> kernel;  // null when not compiled
  Prediction prediction;
  std::optional<Measurement> measurement;

  bool measured_ok() const { return measurement && measurement->status == MeasureStatus::Ok; }
};

struct VendorTiming {
  std::string name;  // e.g. "cusparse-csr-alg2"
  Measurement measurement;
};

struct TuneOutcome {
  std::optional<CandidateOutcome> best;  // empty when nothing compiled or verified
  std::vector<VendorTiming> vendor;
  bool measured = false;                 // best is a measured winner, not a prediction
  int candidates_considered = 0;
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
};

}  // namespace ktune
