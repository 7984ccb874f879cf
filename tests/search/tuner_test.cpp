// The tuning loop without a GPU (model-only policy) and the deterministic tie-break.
#include "search/tuner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>

#include "tests/search/huge_space_family.h"
#include "workload/generators.h"

namespace ktune {
namespace {

class RecordingObserver : public TuneObserver {
 public:
  explicit RecordingObserver(int stop_after = -1) : stop_after_(stop_after) {}
  void planned(int total) override { planned_total = total; }
  void finished_one(const CandidateOutcome& c) override { finished.push_back(c); }
  bool cancelled() override { return stop_after_ >= 0 && static_cast<int>(finished.size()) >= stop_after_; }
  std::optional<Measurement> previous_measurement(const std::string&) override { return std::nullopt; }
  int planned_total = -1;
  std::vector<CandidateOutcome> finished;

 private:
  int stop_after_;
};

struct TunerFixture : ::testing::Test {
  NvrtcCompiler compiler;
  CompileCache cache{compiler, 64, nullptr};
  ThreadPool pool{2};
  Tuner tuner() {
    TunerContext ctx;
    ctx.compile_cache = &cache;
    ctx.compile_pool = &pool;
    ctx.gpu = spec_for_arch("sm_90");
    return Tuner(ctx);
  }
  static TuneRequest request(int compiles) {
    TuneRequest r;
    r.family = find_family("spmv");
    r.budget.model_compiles = compiles;
    return r;
  }
};

TEST_F(TunerFixture, ModelOnlyCompilesTheBudgetAndAnswersTheBestPrediction) {
  Workload w;
  w.matrix = generate_stencil_2d(32);
  RecordingObserver observer;
  const TuneOutcome outcome = tuner().run(w, request(4), observer);
  EXPECT_FALSE(outcome.measured);
  EXPECT_EQ(observer.planned_total, 4);
  ASSERT_EQ(observer.finished.size(), 4u);
  ASSERT_TRUE(outcome.best);
  EXPECT_TRUE(outcome.best->kernel && outcome.best->kernel->ok);
  for (const CandidateOutcome& c : observer.finished) {
    ASSERT_TRUE(c.kernel);
    EXPECT_TRUE(c.kernel->ok) << c.config_key << c.kernel->log;
    EXPECT_FALSE(c.measurement) << "nothing is measured without a GPU";
    EXPECT_GE(c.prediction.time_us, outcome.best->prediction.time_us);
  }
  EXPECT_EQ(outcome.candidates_considered, static_cast<int>(find_family("spmv")->space({}).enumerate().size()));
}

// Part 4 of issue 23: a space of 10^11 configurations is sampled and ranked, never listed.
TEST_F(TunerFixture, AHugeSpaceIsSampledNotEnumerated) {
  const testing::HugeSpaceFamily family;
  ASSERT_GT(family.space({}).nominal_size(), 1e10);
  Workload w;
  w.matrix = generate_stencil_2d(16);
  TuneRequest r;
  r.family = &family;
  r.budget.model_compiles = 2;
  RecordingObserver observer;
  const auto start = std::chrono::steady_clock::now();
  const TuneOutcome outcome = tuner().run(w, r, observer);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  ASSERT_TRUE(outcome.best);
  EXPECT_TRUE(family.space({}).valid(outcome.best->config));
  EXPECT_GT(outcome.candidates_considered, 1000);
  EXPECT_LE(outcome.candidates_considered, 4096);
  EXPECT_EQ(observer.finished.size(), 2u);
}

TEST_F(TunerFixture, RepeatedTunesGiveTheSameAnswer) {
  Workload w;
  w.matrix = generate_rmat(10, 8, 3);
  RecordingObserver a, b;
  EXPECT_EQ(tuner().run(w, request(3), a).best->config_key, tuner().run(w, request(3), b).best->config_key);
}

// A backend that answers each measurement with a time of its own choosing, as search_replay's
// recorded whole space does: compiles are real, so predictions and launch checks are too.
class ReplayedBackend : public LoopBackend {
 public:
  ReplayedBackend(CompileCache& cache, const Tuner& tuner, const TuneRequest& r, std::map<std::string, double>& times)
      : cache_(cache), tuner_(tuner), request_(r), times_(times) {}
  std::shared_ptr<const CompiledKernel> compile(const Config& config) override {
    return cache_.get(tuner_.compile_request(*request_.family, request_.problem, config));
  }
  std::optional<Prediction> predict(const Config&, const CompiledKernel&) override { return Prediction{}; }
  Measurement measure(const Config& config, const CompiledKernel&) override {
    const std::string key = request_.family->space(request_.problem).canonical(config);
    ++calls;
    const double us = 10.0 + static_cast<double>(std::hash<std::string>{}(key) % 1000) / 100.0;
    times_[key] = us;
    return Measurement{MeasureStatus::Ok, us, 0.01, 20, 0, ""};
  }
  std::vector<VendorTiming> vendor() override { return {}; }
  int calls = 0;

 private:
  CompileCache& cache_;
  const Tuner& tuner_;
  TuneRequest request_;
  std::map<std::string, double>& times_;
};

TEST_F(TunerFixture, AReplayBackendRunsTheMeasuredSearchWithoutAGpu) {
  Workload w;
  w.matrix = generate_stencil_2d(16);
  std::map<std::string, double> times;  // every configuration the backend measured, and its time
  std::unique_ptr<Tuner> replaying;
  TunerContext ctx;
  ctx.compile_cache = &cache;
  ctx.compile_pool = &pool;
  ctx.gpu = spec_for_arch("sm_90");
  ctx.replay = [&](const Workload&, const TuneRequest& r, const GpuSpec&) -> std::unique_ptr<LoopBackend> {
    return std::make_unique<ReplayedBackend>(cache, *replaying, r, times);
  };
  replaying = std::make_unique<Tuner>(ctx);
  TuneRequest r = request(4);
  r.budget.measurements = 4;
  RecordingObserver observer;
  const TuneOutcome outcome = replaying->run(w, r, observer);
  EXPECT_TRUE(outcome.measured);
  ASSERT_GE(times.size(), 4u);  // the budget's four, and the untuned default when the search missed it
  EXPECT_EQ(outcome.measurements, static_cast<int>(times.size()));
  ASSERT_TRUE(outcome.best && outcome.best->measured_ok());
  double fastest = 1e9;
  for (const auto& [key, us] : times) fastest = std::min(fastest, us);
  EXPECT_DOUBLE_EQ(outcome.best->measurement->median_us, fastest);
  EXPECT_EQ(times.at(outcome.best->config_key), fastest);
}

TEST_F(TunerFixture, CancellationStopsAtTheNextCandidate) {
  Workload w;
  w.matrix = generate_stencil_2d(16);
  RecordingObserver observer(2);
  tuner().run(w, request(6), observer);
  EXPECT_EQ(observer.finished.size(), 2u);
}

CandidateOutcome measured(const std::string& key, double median, double iqr) {
  CandidateOutcome c;
  c.config_key = key;
  c.measurement = Measurement{MeasureStatus::Ok, median, iqr, 10, 0, ""};
  return c;
}

TEST(BetterMeasured, FasterWinsOutsideTheNoiseAndTiesGoToTheKey) {
  EXPECT_TRUE(better_measured(measured("b", 10.0, 0.01), measured("a", 11.0, 0.01)));
  EXPECT_FALSE(better_measured(measured("a", 11.0, 0.01), measured("b", 10.0, 0.01)));
  // Within each other's IQR: a statistical tie, decided by the configuration key.
  EXPECT_TRUE(better_measured(measured("a", 10.2, 0.5), measured("b", 10.0, 0.5)));
  EXPECT_FALSE(better_measured(measured("b", 10.0, 0.5), measured("a", 10.2, 0.5)));
}

CandidateOutcome measured(const std::string& key, double median, double iqr, int count) {
  CandidateOutcome c = measured(key, median, iqr);
  c.measurement->count = count;
  return c;
}

TEST(BetterMeasured, ManyRunsTellMediansApartInsideOneRunsSpread) {
  // Union-find on R-MAT 20: 200 runs each, an IQR of about 60 µs, medians 15% apart. The
  // medians' notches (1.58 IQR / sqrt(200), 7 µs) do not overlap: the faster wins, whatever
  // the key says.
  EXPECT_TRUE(better_measured(measured("z", 299.3, 65.1, 200), measured("a", 352.3, 62.4, 200)));
  EXPECT_FALSE(better_measured(measured("a", 352.3, 62.4, 200), measured("z", 299.3, 65.1, 200)));
  // The same spread over 10 runs each (notches of 32 µs) cannot order them: the key decides.
  EXPECT_TRUE(better_measured(measured("a", 352.3, 62.4, 10), measured("z", 299.3, 65.1, 10)));
}

}  // namespace
}  // namespace ktune
