#pragma once
// What the GPU benchmarks share: a tuner that measures every configuration of a space on the
// GPU of this machine, and an observer that keeps each finished candidate.
#include <memory>
#include <vector>

#include "gpu/compile_cache.h"
#include "gpu/measurer.h"
#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "model/gpu_spec.h"
#include "search/tuner.h"

namespace ktune::bench {

class ExhaustiveTuner {
 public:
  // `measurer` must be available and outlive this object.
  explicit ExhaustiveTuner(Measurer& measurer) : cache_(compiler_, 4096, nullptr) {
    const DeviceInfo device = measurer.device();
    TunerContext ctx;
    ctx.compile_cache = &cache_;
    ctx.compile_pool = &pool_;
    ctx.gpu = spec_for_arch(device.arch());
    ctx.gpu.sms = device.sms;
    ctx.gpu.l2_bytes = device.l2_bytes;
    ctx.measurer = &measurer;
    ctx.exhaustive_limit = 1 << 20;  // every configuration, whatever the size of the space
    tuner_ = std::make_unique<Tuner>(ctx);
  }
  const Tuner& tuner() const { return *tuner_; }

 private:
  NvrtcCompiler compiler_;
  CompileCache cache_;
  ThreadPool pool_;
  std::unique_ptr<Tuner> tuner_;
};

class CollectingObserver : public TuneObserver {
 public:
  void planned(int) override {}
  void finished_one(const CandidateOutcome& c) override { all.push_back(c); }
  bool cancelled() override { return false; }
  std::optional<Measurement> previous_measurement(const std::string&) override { return std::nullopt; }
  std::vector<CandidateOutcome> all;
};

}  // namespace ktune::bench
