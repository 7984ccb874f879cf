#pragma once
// The tuning loop of issue 2/3: rank a family's configurations with the cost model, compile
// ahead in the thread pool, and (with a GPU) measure, verify and pick the fastest.
// Policy: with no GPU, compile the model's top few and answer the best prediction; with a GPU,
// measure every configuration when the space is small, else the model's best N.
#include "gpu/compile_cache.h"
#include "gpu/measurer.h"
#include "gpu/thread_pool.h"
#include "model/gpu_spec.h"
#include "search/tune_types.h"

namespace ktune {

struct TunerContext {
  CompileCache* compile_cache = nullptr;
  ThreadPool* compile_pool = nullptr;
  GpuSpec gpu;
  Measurer* measurer = nullptr;  // null or unavailable: model-only answers
  int exhaustive_limit = 200;    // spaces up to this size are measured exhaustively
};

class Tuner {
 public:
  explicit Tuner(TunerContext context) : ctx_(std::move(context)) {}
  TuneOutcome run(const Workload& workload, const TuneRequest& request, TuneObserver& observer) const;

  // The request an NVRTC compile of `config` needs, for the answer and the cache alike.
  CompileRequest compile_request(const KernelFamily& family, const Config& config, Dtype dtype) const;

 private:
  bool can_measure() const;
  TuneOutcome run_model_only(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                             TuneObserver& observer) const;
  TuneOutcome run_measured(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                           TuneObserver& observer) const;
  TunerContext ctx_;
};

// Orders measured candidates: faster median first; ties inside the noise go to fewer
// registers, then to the configuration key, so that repeated tunes give the same answer.
bool better_measured(const CandidateOutcome& a, const CandidateOutcome& b);

}  // namespace ktune
