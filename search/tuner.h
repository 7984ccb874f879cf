#pragma once
// A tune of one workload: rank a family's configurations with the cost model; with no GPU,
// compile the model's top few and answer the best prediction; with a GPU, seed the measured
// search (tuning_loop.h) with the SAAKE walk's pick and the model's best, and let the
// technique from make_search_technique propose the rest.
#include "gpu/compile_cache.h"
#include "gpu/measurer.h"
#include "gpu/thread_pool.h"
#include "model/gpu_spec.h"
#include "search/candidate_order.h"
#include "search/tune_types.h"

namespace ktune {

struct TunerContext {
  CompileCache* compile_cache = nullptr;
  ThreadPool* compile_pool = nullptr;
  GpuSpec gpu;
  Measurer* measurer = nullptr;  // null or unavailable: model-only answers
  int exhaustive_limit = 0;      // spaces up to this size are measured in full, no early stop (benchmarks)
  int lookahead = 3;             // compiled candidates kept ready ahead of the GPU
  int finalists = 3;             // re-measured interleaved at the end of a measured search
  int finalist_rounds = 2;
};

class Tuner {
 public:
  explicit Tuner(TunerContext context) : ctx_(std::move(context)) {}
  TuneOutcome run(const Workload& workload, const TuneRequest& request, TuneObserver& observer) const;

  // The SAAKE walk's pick on the cost model (nothing for a family without canonical moves).
  std::optional<Config> model_walk(const Workload& workload, const TuneRequest& request) const;

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

}  // namespace ktune
