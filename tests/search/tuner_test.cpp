// The tuning loop without a GPU (model-only policy) and the deterministic tie-break.
#include "search/tuner.h"

#include <gtest/gtest.h>

#include <chrono>

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
