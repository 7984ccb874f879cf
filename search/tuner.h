#pragma once
// A tune of one workload: rank a family's configurations with the first cost model; with no
// GPU, compile the model's top few, rank those with the emulator (model/saake) and answer the
// best emulated prediction; with a GPU, walk SAAKE on the emulator, seed the measured search
// (tuning_loop.h) with the walk's pick and the model's best, and let the ensemble from
// make_search_technique propose the rest. Every outcome carries the emulator's explanation of
// its best (bottleneck and sensitivity vector).
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "gpu/compile_cache.h"
#include "gpu/measurer.h"
#include "gpu/thread_pool.h"
#include "model/gpu_spec.h"
#include "search/candidate_order.h"
#include "search/emulator_oracle.h"
#include "search/tuning_loop.h"
#include "search/tune_types.h"

namespace ktune {

struct TunerContext {
  CompileCache* compile_cache = nullptr;
  ThreadPool* compile_pool = nullptr;  // required: compiles, estimates and the walks run here
  GpuSpec gpu;
  Measurer* measurer = nullptr;  // null or unavailable: model-only answers
  int exhaustive_limit = 0;      // spaces up to this size are measured in full, no early stop (benchmarks)
  int lookahead = 3;             // compiled candidates kept ready ahead of the GPU
  int finalists = 3;             // re-measured interleaved at the end of a measured search
  int finalist_rounds = 2;
  // Where the tuner says what it fell back on (a candidate the emulator cannot take); may be empty.
  std::function<void(const std::string&)> log;
  // Stands in for the GPU where set: the measured search runs proposal for proposal as on a
  // device, each measurement answered by this backend (bench/search_replay: a recorded whole
  // space's times).
  std::function<std::unique_ptr<LoopBackend>(const Workload&, const TuneRequest&, const GpuSpec&)> replay;
};

class Tuner {
 public:
  explicit Tuner(TunerContext context)
      : ctx_(std::move(context)), gpu_(std::make_shared<const GpuSpec>(ctx_.gpu)) {}
  TuneOutcome run(const Workload& workload, const TuneRequest& request, TuneObserver& observer) const;

  // The SAAKE walk's pick on the emulator, the first cost model answering candidates the
  // emulator cannot take (nothing for a family without canonical moves).
  std::optional<Config> model_walk(const Workload& workload, const TuneRequest& request) const;

  // The spec tunes predict with. A calibration that finishes while the daemon runs swaps it
  // in here; a running tune keeps the spec it started with, later tunes use the new one.
  void set_gpu(const GpuSpec& gpu);
  std::shared_ptr<const GpuSpec> gpu() const;

  // The request an NVRTC compile of `config` needs, for the answer and the cache alike.
  CompileRequest compile_request(const KernelFamily& family, const Problem& problem, const Config& config) const;

 private:
  bool can_measure() const;
  TuneOutcome run_model_only(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                             const GpuSpec& gpu, TuneObserver& observer) const;
  TuneOutcome run_measured(const Workload& w, const TuneRequest& r, std::vector<CandidateOutcome> ranked,
                           const GpuSpec& gpu, TuneObserver& observer) const;
  // The SAAKE walks (one per canonical start, side by side on the compile pool, each on an
  // emulator oracle of its own); what they emulated joins `into`. The best walk's pick.
  std::optional<Config> walk(const Workload& w, const TuneRequest& r, const GpuSpec& gpu, EmulatorOracle& into) const;
  EmulatorOracle::Compile compiler_for(const TuneRequest& r) const;
  TunerContext ctx_;  // ctx_.gpu: the spec at construction; gpu_ is the current one
  mutable std::mutex gpu_mutex_;
  std::shared_ptr<const GpuSpec> gpu_;
};

}  // namespace ktune
