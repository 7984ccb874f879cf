#pragma once
// What the GPU benchmarks share: a tuner that measures every configuration of a space on the
// GPU of this machine (or, with exhaustive = false, searches it as ktuned does within the
// request's budget), and an observer that keeps each finished candidate.
#include <chrono>
#include <functional>
#include <future>
#include <ostream>
#include <memory>
#include <vector>

#include "gpu/compile_cache.h"
#include "gpu/measurer.h"
#include "gpu/nvrtc_compiler.h"
#include "gpu/thread_pool.h"
#include "model/gpu_spec.h"
#include "search/gpu_backend.h"
#include "search/tuner.h"

namespace ktune::bench {

class ExhaustiveTuner {
 public:
  // `measurer` must be available and outlive this object.
  explicit ExhaustiveTuner(Measurer& measurer, bool exhaustive = true) : cache_(compiler_, 4096, nullptr) {
    const DeviceInfo device = measurer.device();
    TunerContext ctx;
    ctx.compile_cache = &cache_;
    ctx.compile_pool = &pool_;
    ctx.gpu = spec_for_arch(device.arch());
    ctx.gpu.sms = device.sms;
    ctx.gpu.l2_bytes = device.l2_bytes;
    ctx.measurer = &measurer;
    gpu_ = ctx.gpu;
    measurer_ = &measurer;
    ctx.exhaustive_limit = exhaustive ? 1 << 20 : 0;  // every configuration, whatever the size of the space
    tuner_ = std::make_unique<Tuner>(ctx);
  }
  const Tuner& tuner() const { return *tuner_; }

  // A chosen list of configurations, each compiled (side by side on the pool) and measured in
  // turn as a tune measures a candidate, then the family's vendor calls: the ground truth of a
  // space too large to measure whole, from a uniform sample of it.
  struct Measured {
    std::vector<CandidateOutcome> candidates;  // in the order given
    std::vector<double> seconds;               // each one's wall time, compile wait included
    std::vector<VendorTiming> vendor;
  };
  Measured measure_each(const Workload& w, const TuneRequest& r, const std::vector<Config>& configs) const {
    GpuLoopBackend backend(*r.family, w, r.problem, r.hot, gpu_, cache_, *measurer_,
                           [&](const Config& c) { return tuner_->compile_request(*r.family, r.problem, c); });
    std::vector<std::future<std::shared_ptr<const CompiledKernel>>> kernels;
    // The compiles borrow `backend`: should a measurement throw, they finish before it goes.
    struct Drain {
      std::vector<std::future<std::shared_ptr<const CompiledKernel>>>& pending;
      ~Drain() {
        for (auto& f : pending)
          if (f.valid()) f.wait();
      }
    } drain{kernels};
    for (const Config& c : configs) kernels.push_back(pool_.submit([&backend, c] { return backend.compile(c); }));
    const ParameterSpace space = r.family->space(r.problem);
    Measured out;
    for (size_t i = 0; i < configs.size(); ++i) {
      const auto start = std::chrono::steady_clock::now();
      CandidateOutcome c = candidate_before_measuring(backend, configs[i], space.canonical(configs[i]), kernels[i].get());
      if (!c.measurement) c.measurement = backend.measure(c.config, *c.kernel);
      out.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      out.candidates.push_back(std::move(c));
    }
    out.vendor = backend.vendor();
    return out;
  }

 private:
  NvrtcCompiler compiler_;
  mutable CompileCache cache_;
  mutable ThreadPool pool_;
  GpuSpec gpu_;
  Measurer* measurer_ = nullptr;
  std::unique_ptr<Tuner> tuner_;
};

class CollectingObserver : public TuneObserver {
 public:
  void planned(int) override {}
  void finished_one(const CandidateOutcome& c) override {
    const auto now = std::chrono::steady_clock::now();
    if (!skipped(c.config_key)) {
      all.push_back(c);
      seconds.push_back(std::chrono::duration<double>(now - last_).count());
      if (log) *log << "  " << c.config_key << ": " << seconds.back() << " s, "
                    << (c.measurement ? c.measurement->to_json().dump() : std::string("not measured")) << "\n";
    }
    last_ = now;
  }
  bool cancelled() override { return false; }
  // A skipped configuration is answered as if measured before (and failed), so nothing runs.
  std::optional<Measurement> previous_measurement(const std::string& key) override {
    if (skipped(key)) return Measurement{MeasureStatus::LaunchError, 0, 0, 0, 0, "skipped by the benchmark"};
    return std::nullopt;
  }
  std::vector<CandidateOutcome> all;
  // Wall time from the previous finished candidate to each of `all`: where a benchmark's time goes.
  std::vector<double> seconds;
  std::ostream* log = nullptr;  // each finished candidate, as it finishes, when set
  // Canonical keys not to measure (e.g. all but one schedule); none when empty.
  std::function<bool(const std::string&)> skip;

 private:
  bool skipped(const std::string& key) const { return skip && skip(key); }
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace ktune::bench
