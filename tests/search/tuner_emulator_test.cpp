// The tuner with the emulator: model-only answers ranked by emulation, every outcome
// explained (bottleneck and sensitivity vector), and a new GPU spec taking effect for the
// tunes that start after it is set.
#include <gtest/gtest.h>

#include <algorithm>

#include "model/resource.h"
#include "model/saake/saake_prediction.h"
#include "search/explanation.h"
#include "search/tuner.h"
#include "workload/generators.h"

namespace ktune {
namespace {

class Collect : public TuneObserver {
 public:
  void planned(int) override {}
  void finished_one(const CandidateOutcome& c) override { finished.push_back(c); }
  bool cancelled() override { return false; }
  std::optional<Measurement> previous_measurement(const std::string&) override { return std::nullopt; }
  std::vector<CandidateOutcome> finished;
};

struct EmuTunerFixture : ::testing::Test {
  NvrtcCompiler compiler;
  CompileCache cache{compiler, 64, nullptr};
  ThreadPool pool{2};
  Workload w;
  EmuTunerFixture() { w.matrix = generate_stencil_2d(48); }
  std::unique_ptr<Tuner> tuner(const GpuSpec& gpu) {
    TunerContext ctx;
    ctx.compile_cache = &cache;
    ctx.compile_pool = &pool;
    ctx.gpu = gpu;
    return std::make_unique<Tuner>(ctx);
  }
  static TuneRequest request(int compiles) {
    TuneRequest r;
    r.family = find_family("spmv");
    r.budget.model_compiles = compiles;
    return r;
  }
};

TEST_F(EmuTunerFixture, ModelOnlyRanksCompiledCandidatesWithTheEmulatorAndExplainsTheBest) {
  const GpuSpec gpu = spec_for_arch("sm_90");
  Collect observer;
  const TuneRequest r = request(4);
  const TuneOutcome outcome = tuner(gpu)->run(w, r, observer);
  ASSERT_TRUE(outcome.best);
  ASSERT_EQ(observer.finished.size(), 4u);
  for (const CandidateOutcome& c : observer.finished) {
    // Each candidate's prediction is its emulation, not the first model's.
    const auto p = emulate_compiled(*r.family, w, r.problem, c.config, *c.kernel, gpu, false, nullptr);
    ASSERT_TRUE(p) << c.config_key;
    EXPECT_DOUBLE_EQ(c.prediction.time_us, p->microseconds) << c.config_key;
    EXPECT_GE(c.prediction.time_us, outcome.best->prediction.time_us);
  }
  ASSERT_TRUE(outcome.explanation);
  const Explanation& x = *outcome.explanation;
  EXPECT_EQ(x.model, "emulator");
  EXPECT_DOUBLE_EQ(x.predicted_us, outcome.best->prediction.time_us) << "the same emulation, with the analysis";
  EXPECT_TRUE(resource_from_name(x.resource).has_value()) << x.resource;
  EXPECT_TRUE(x.kind == "latency" || x.kind == "throughput") << x.kind;
  ASSERT_TRUE(x.sensitivity.is_object());
  ASSERT_TRUE(x.sensitivity.contains("sensitivity"));
  const nlohmann::json& vector = x.sensitivity.at("sensitivity");
  EXPECT_EQ(vector.size(), kResourceCount);
  for (const auto& [name, s] : vector.items()) {
    EXPECT_TRUE(resource_from_name(name).has_value()) << name;
    EXPECT_TRUE(s.at("latency").is_number() && s.at("gap").is_number()) << name;
  }
  EXPECT_EQ(x.sensitivity.at("bottleneck").at("resource"), x.resource);
  EXPECT_EQ(x.sensitivity.at("bottleneck_label"), x.resource + ":" + x.kind);
}

TEST_F(EmuTunerFixture, AnExplanationFallsBackToTheFirstModelForAnUnemulatableKernel) {
  CandidateOutcome best;
  best.config = find_family("spmv")->space({}).enumerate().front();
  best.config_key = "k";
  best.prediction.time_us = 7;
  best.prediction.bottleneck = "memory";
  auto k = std::make_shared<CompiledKernel>();
  k->ok = true;
  k->ptx = "not PTX";
  best.kernel = k;
  int logged = 0;
  const Explanation x = explain_candidate(*find_family("spmv"), w, Problem::of(Dtype::F32), best, spec_for_arch("sm_90"),
                                          [&](const std::string&) { ++logged; });
  EXPECT_EQ(x.model, "first_model");
  EXPECT_DOUBLE_EQ(x.predicted_us, 7);
  EXPECT_EQ(x.resource, "dram");
  EXPECT_EQ(x.kind, "throughput");
  EXPECT_TRUE(x.sensitivity.is_null());
  EXPECT_EQ(logged, 1);
}

TEST_F(EmuTunerFixture, ANewSpecTakesEffectForLaterTunes) {
  const GpuSpec before = spec_for_arch("sm_90");
  GpuSpec slow = before;  // a calibration that found DRAM twice as slow
  timing(slow.timing, Resource::Dram).gap *= 2;
  timing(slow.timing, Resource::Dram).latency *= 2;
  slow.timing_source = "calibrated test";
  std::unique_ptr<Tuner> t = tuner(before);
  const std::shared_ptr<const GpuSpec> held = t->gpu();  // a tune in flight keeps its spec
  Collect a, b;
  const TuneOutcome first = t->run(w, request(2), a);
  t->set_gpu(slow);
  const TuneOutcome second = t->run(w, request(2), b);
  EXPECT_EQ(held->timing_source, before.timing_source);
  EXPECT_EQ(t->gpu()->timing_source, "calibrated test");
  ASSERT_TRUE(first.best && second.best);
  // The same candidates, predicted with the slower DRAM.
  EXPECT_EQ(a.finished.front().config_key, b.finished.front().config_key);
  EXPECT_GT(b.finished.front().prediction.time_us, a.finished.front().prediction.time_us * 1.05);
}

}  // namespace
}  // namespace ktune
