// The measured search loop against a fake GPU whose timings are known.
#include "search/tuning_loop.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "tests/search/loop_fakes.h"

namespace ktune {
namespace {

using namespace ktune::testing;

struct LoopFixture : ::testing::Test {
  ParameterSpace space = small_space();
  FakeBackend backend;
  RecordingObserver observer;
  ThreadPool pool{2};
  LoopSettings settings;

  LoopFixture() {
    settings.budget.measurements = 200;
    settings.budget.patience = 1000;  // tests that want convergence lower it
    settings.space_size = 70;
  }
  TuneOutcome run(Technique& technique, const std::vector<Config>& seeds = {}) {
    return run_tuning_loop(space, seeds, technique, backend, pool, settings, observer);
  }
  static std::vector<std::string> keys(const std::vector<CandidateOutcome>& cs) {
    std::vector<std::string> out;
    for (const CandidateOutcome& c : cs) out.push_back(c.config_key);
    return out;
  }
};

TEST_F(LoopFixture, ExhaustsASmallSpaceAndFindsTheOptimum) {
  RandomTechnique random(space);
  const TuneOutcome outcome = run(random);
  EXPECT_EQ(outcome.stop_reason, "exhausted");
  EXPECT_EQ(observer.finished.size(), 70u);
  ASSERT_TRUE(outcome.best);
  EXPECT_EQ(outcome.best->config, cfg(8, 6));
}

TEST_F(LoopFixture, StopsOnTheMeasurementBudgetAndMeasuresSeedsFirst) {
  settings.budget.measurements = 10;
  RandomTechnique random(space);
  const TuneOutcome outcome = run(random, {cfg(8, 6), cfg(2, 2)});
  EXPECT_EQ(outcome.stop_reason, "budget");
  ASSERT_EQ(observer.finished.size(), 10u);
  EXPECT_EQ(observer.finished[0].config, cfg(8, 6));
  EXPECT_EQ(observer.finished[1].config, cfg(2, 2));
  EXPECT_EQ(outcome.best->config, cfg(8, 6));
  // Ten search measurements plus the three finalists twice more each.
  EXPECT_EQ(backend.measured.size(), 16u);
  EXPECT_EQ(observer.planned_total, 16);
}

TEST_F(LoopFixture, AConfigurationWhosePlanWasMeasuredCarriesThatMeasurementAndSpendsNoBudget) {
  settings.budget.measurements = 3;
  settings.finalists = 0;
  // b = 9 runs b = 8's plan (as heavy_light's thresholds do where no row is heavy).
  backend.plan = [&](const Config& c) { return space.canonical(cfg(c.at("a"), std::min<int64_t>(c.at("b"), 8))); };
  ListTechnique list({cfg(8, 8), cfg(8, 9), cfg(4, 6), cfg(2, 2), cfg(1, 1)});
  const TuneOutcome outcome = run(list);
  EXPECT_EQ(outcome.stop_reason, "budget");
  EXPECT_EQ(outcome.measurements, 3);
  ASSERT_EQ(backend.measured.size(), 3u);
  EXPECT_EQ(backend.measured[1], cfg(4, 6));
  EXPECT_EQ(backend.measured[2], cfg(2, 2));
  ASSERT_EQ(observer.finished.size(), 4u);
  const CandidateOutcome& twin = observer.finished[1];
  EXPECT_EQ(twin.config, cfg(8, 9));
  EXPECT_EQ(twin.same_plan_as, space.canonical(cfg(8, 8)));
  ASSERT_TRUE(twin.measured_ok());
  EXPECT_DOUBLE_EQ(twin.measurement->median_us, bowl(cfg(8, 8)));
  EXPECT_EQ(twin.measurement->message, "same plan as " + space.canonical(cfg(8, 8)));
}

TEST_F(LoopFixture, ARestartReadsAPlanTwinBackAsOne) {
  settings.budget.measurements = 2;
  settings.finalists = 0;
  backend.plan = [&](const Config& c) { return space.canonical(cfg(c.at("a"), std::min<int64_t>(c.at("b"), 8))); };
  // Committed before the restart: (8, 8) measured, (8, 9) carried over from it.
  Measurement carried{MeasureStatus::Ok, bowl(cfg(8, 8)), 0.01, 10, 0, "same plan as " + space.canonical(cfg(8, 8))};
  observer.previous[space.canonical(cfg(8, 8))] = Measurement{MeasureStatus::Ok, bowl(cfg(8, 8)), 0.01, 10, 0, ""};
  observer.previous[space.canonical(cfg(8, 9))] = carried;
  ListTechnique list({cfg(8, 8), cfg(8, 9), cfg(4, 6), cfg(2, 2)});
  const TuneOutcome outcome = run(list);
  // The replayed twin spends no budget now either: (4, 6) is the second measurement.
  ASSERT_EQ(backend.measured.size(), 1u);
  EXPECT_EQ(backend.measured[0], cfg(4, 6));
  EXPECT_EQ(outcome.measurements, 2);
  EXPECT_EQ(observer.finished[1].same_plan_as, space.canonical(cfg(8, 8)));
}

TEST_F(LoopFixture, StopsOnTheTimeBudget) {
  settings.budget.seconds = 0.05;
  backend.measure_delay = std::chrono::milliseconds(20);
  RandomTechnique random(space);
  const TuneOutcome outcome = run(random);
  EXPECT_EQ(outcome.stop_reason, "seconds");
  EXPECT_GE(observer.finished.size(), 2u);
  EXPECT_LE(observer.finished.size(), 5u);
  EXPECT_EQ(backend.measured.size(), observer.finished.size()) << "no finalist rounds past the time budget";
}

TEST_F(LoopFixture, StopsOnceTheRequestedSpeedupOverTheVendorIsReached) {
  backend.vendor_timings = {{"vendor-a", Measurement{MeasureStatus::Ok, 30, 0.1, 10, 0, ""}},
                            {"vendor-b", Measurement{MeasureStatus::Ok, 25, 0.1, 10, 0, ""}}};
  settings.target_speedup = 2.0;  // the faster vendor (25 µs) over 2: anything at 12.5 µs or less
  // Times along the list: 19, 17, 12 (a = 8, b = 4: 10 + 0 + 2), then better ones never reached.
  ListTechnique list({cfg(1, 0), cfg(2, 1), cfg(8, 4), cfg(8, 5), cfg(8, 6)});
  const TuneOutcome outcome = run(list);
  EXPECT_EQ(outcome.stop_reason, "target");
  ASSERT_EQ(observer.finished.size(), 3u);
  EXPECT_EQ(outcome.best->config, cfg(8, 4));
  EXPECT_EQ(outcome.vendor.size(), 2u);
  ASSERT_FALSE(observer.reports.empty());
  EXPECT_DOUBLE_EQ(*observer.reports.back().vendor_us, 25);
}

TEST_F(LoopFixture, ConvergesWhenNothingBeatsTheBestByMoreThanTheNoise) {
  settings.budget.patience = 4;
  // The best comes first; then gains of 0.01 µs on ~10 µs, inside the 0.5% noise floor.
  backend.time = [](const Config& c, int) { return c == cfg(1, 0) ? 10.0 : 10.0 - 0.01 * static_cast<double>(c.at("b")); };
  ListTechnique list({cfg(1, 0), cfg(1, 1), cfg(1, 2), cfg(1, 3), cfg(1, 4), cfg(1, 5), cfg(1, 6)});
  const TuneOutcome outcome = run(list);
  EXPECT_EQ(outcome.stop_reason, "converged");
  EXPECT_EQ(observer.finished.size(), 5u);  // the best, then four without a real gain
}

TEST_F(LoopFixture, AGainBeyondTheNoiseResetsConvergence) {
  settings.budget.patience = 3;
  ListTechnique list({cfg(1, 0), cfg(1, 1), cfg(1, 2), cfg(8, 6), cfg(1, 3), cfg(1, 4), cfg(1, 5), cfg(1, 7)});
  const TuneOutcome outcome = run(list);
  // 19 µs, then 18 and 17 are gains; 10 (a = 8, b = 6) too; then 16, 15, 14 are not.
  EXPECT_EQ(outcome.stop_reason, "converged");
  EXPECT_EQ(observer.finished.size(), 7u);
  EXPECT_EQ(outcome.best->config, cfg(8, 6));
}

TEST_F(LoopFixture, FinalistsAreReMeasuredInterleavedAndRankedOnAllTheirRuns) {
  settings.budget.measurements = 4;
  // (8, 6) was lucky once: 9 µs in the search, 12 µs every time after. (8, 5) is a steady 10.
  backend.time = [](const Config& c, int call) {
    if (c == cfg(8, 6)) return call == 0 ? 9.0 : 12.0;
    return bowl(c) - (c == cfg(8, 5) ? 1.0 : 0.0);
  };
  ListTechnique list({cfg(8, 6), cfg(8, 5), cfg(8, 7), cfg(1, 0)});
  const TuneOutcome outcome = run(list);
  ASSERT_EQ(backend.measured.size(), 4u + 6u);
  // After the search: A B C A B C in the search's order of merit (9, 10, 11 µs).
  const std::vector<Config> tail(backend.measured.begin() + 4, backend.measured.end());
  const std::vector<Config> expected = {cfg(8, 6), cfg(8, 5), cfg(8, 7), cfg(8, 6), cfg(8, 5), cfg(8, 7)};
  EXPECT_EQ(tail, expected);
  ASSERT_EQ(outcome.finalists.size(), 3u);
  EXPECT_EQ(outcome.best->config, cfg(8, 5));  // median of 9, 12, 12 is 12: the lucky run does not win
  for (const CandidateOutcome& f : outcome.finalists) {
    EXPECT_EQ(f.measurement->count, 30);  // three runs of ten
    if (f.config == cfg(8, 6)) {
      EXPECT_DOUBLE_EQ(f.measurement->median_us, 12);
    }
  }
}

TEST_F(LoopFixture, StatisticalTiesGoToFewerRegistersThenToTheKey) {
  backend.time = [](const Config&, int) { return 10.0; };
  backend.registers = [](const Config& c) { return c.at("a") == 4 ? 24 : 40; };
  ListTechnique list({cfg(1, 0), cfg(4, 9), cfg(4, 2), cfg(2, 3)});
  EXPECT_EQ(run(list).best->config, cfg(4, 2));  // fewest registers; then "a=4;b=2" < "a=4;b=9"
}

TEST_F(LoopFixture, SameSeedSamePicksAndProposals) {
  settings.budget.measurements = 12;
  // Noise-free but uneven timings, so that the pick depends on what was proposed.
  auto once = [&](uint64_t seed) {
    FakeBackend b;
    RecordingObserver o;
    LoopSettings s = settings;
    s.seed = seed;
    RandomTechnique random(space);
    const TuneOutcome outcome = run_tuning_loop(space, {}, random, b, pool, s, o);
    return std::make_pair(outcome.best->config_key, keys(o.finished));
  };
  const auto a = once(7), b = once(7), c = once(8);
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.second, b.second);
  EXPECT_NE(a.second, c.second);
}

TEST_F(LoopFixture, ResumeReplaysStoredMeasurementsAndMeasuresOnlyTheRest) {
  settings.budget.measurements = 12;
  settings.seed = 42;
  // The run that would have happened without a restart.
  std::vector<std::string> uninterrupted;
  {
    FakeBackend b;
    RecordingObserver o;
    RandomTechnique random(space);
    run_tuning_loop(space, {cfg(8, 6)}, random, b, pool, settings, o);
    uninterrupted = keys(o.finished);
  }
  // First attempt: killed after five candidates; what it committed is what a job stores.
  RecordingObserver first;
  first.cancel_after = 5;
  {
    FakeBackend b;
    RandomTechnique random(space);
    run_tuning_loop(space, {cfg(8, 6)}, random, b, pool, settings, first);
  }
  ASSERT_EQ(first.finished.size(), 5u);
  RecordingObserver resumed;
  for (const CandidateOutcome& c : first.finished) resumed.previous[c.config_key] = *c.measurement;
  RandomTechnique random(space);
  const TuneOutcome outcome = run_tuning_loop(space, {cfg(8, 6)}, random, backend, pool, settings, resumed);
  EXPECT_EQ(resumed.replay_lookups_hit, 5);
  EXPECT_EQ(keys(resumed.finished), uninterrupted);
  // Nothing stored is measured again in the search (finalists are re-timed on purpose).
  const std::vector<Config> search(backend.measured.begin(), backend.measured.begin() + 7);
  for (const Config& c : search) EXPECT_FALSE(resumed.previous.count(space.canonical(c))) << space.canonical(c);
  EXPECT_EQ(backend.measured.size(), 7u + 6u);
  EXPECT_EQ(outcome.best->config, cfg(8, 6));
}

TEST_F(LoopFixture, TheVendorBaselineIsCommittedOnceAndReusedAfterARestart) {
  settings.budget.measurements = 4;
  Measurement vendor_time{MeasureStatus::Ok, 11.5, 0.1, 10, 0, ""};
  backend.vendor_timings = {{"vendor-a", vendor_time}};
  RecordingObserver first;
  ListTechnique list({cfg(8, 6), cfg(4, 6)});
  const TuneOutcome a = run_tuning_loop(space, {}, list, backend, pool, settings, first);
  EXPECT_EQ(backend.vendor_calls, 1);
  ASSERT_EQ(first.committed_vendor.size(), 1u);
  EXPECT_EQ(first.committed_vendor[0].name, "vendor-a");
  ASSERT_EQ(a.vendor.size(), 1u);

  // After a restart the stored baseline stands in for a new timing.
  FakeBackend restarted;
  restarted.vendor_timings = {{"vendor-a", Measurement{MeasureStatus::Ok, 99, 0.1, 10, 0, ""}}};
  RecordingObserver resumed;
  resumed.stored_vendor = first.committed_vendor;
  ListTechnique again({cfg(8, 6), cfg(4, 6)});
  const TuneOutcome b = run_tuning_loop(space, {}, again, restarted, pool, settings, resumed);
  EXPECT_EQ(restarted.vendor_calls, 0);
  EXPECT_TRUE(resumed.committed_vendor.empty());
  ASSERT_EQ(b.vendor.size(), 1u);
  EXPECT_DOUBLE_EQ(b.vendor[0].measurement.median_us, 11.5);
}

TEST_F(LoopFixture, ARestartInTheFinalistPhaseMeasuresNothingAgain) {
  settings.budget.measurements = 6;
  settings.finalists = 3;
  settings.finalist_rounds = 2;
  settings.seed = 7;
  RecordingObserver first;
  RandomTechnique random(space);
  const TuneOutcome a = run_tuning_loop(space, {}, random, backend, pool, settings, first);
  EXPECT_EQ(first.finalists_committed, 3 * 2);
  EXPECT_EQ(backend.measured.size(), 6u + 6u);

  // Everything stored: the search replays, the finalists' rounds too; the GPU is not touched.
  FakeBackend restarted;
  RecordingObserver resumed;
  for (const CandidateOutcome& c : first.finished) resumed.previous[c.config_key] = *c.measurement;
  resumed.finalist_rounds = first.finalist_rounds;
  RandomTechnique again(space);
  const TuneOutcome b = run_tuning_loop(space, {}, again, restarted, pool, settings, resumed);
  EXPECT_TRUE(restarted.measured.empty());
  EXPECT_EQ(resumed.finalists_committed, 0);
  ASSERT_TRUE(a.best && b.best);
  EXPECT_EQ(b.best->config_key, a.best->config_key);
  EXPECT_DOUBLE_EQ(b.best->measurement->median_us, a.best->measurement->median_us);
}

TEST_F(LoopFixture, TimeSpentBeforeARestartCountsAgainstTheBudget) {
  settings.budget.seconds = 5;
  RecordingObserver resumed;
  resumed.elapsed_before = 10;  // the interrupted run already used the budget
  RandomTechnique random(space);
  const TuneOutcome outcome = run_tuning_loop(space, {}, random, backend, pool, settings, resumed);
  EXPECT_EQ(outcome.stop_reason, "seconds");
  EXPECT_LE(backend.measured.size(), 1u);
  ASSERT_FALSE(resumed.reports.empty());
  EXPECT_GE(resumed.reports.back().elapsed_s, 10.0);
}

TEST_F(LoopFixture, ACandidateTheDeviceCannotRunIsNeverLaunched) {
  settings.budget.measurements = 3;
  settings.finalists = 0;
  // The fastest configuration of the bowl would need more registers than a block may have.
  backend.violation = [](const Config& c) { return c == cfg(8, 6) ? std::string("255 registers x 1024 threads") : ""; };
  ListTechnique list({cfg(8, 6), cfg(4, 6), cfg(8, 5)});
  RecordingObserver observer;
  const TuneOutcome outcome = run_tuning_loop(space, {}, list, backend, pool, settings, observer);
  for (const Config& m : backend.measured) EXPECT_NE(m, cfg(8, 6));
  ASSERT_EQ(observer.finished.size(), 3u);
  EXPECT_EQ(observer.finished[0].config, cfg(8, 6));
  ASSERT_TRUE(observer.finished[0].measurement);
  EXPECT_EQ(observer.finished[0].measurement->status, MeasureStatus::LaunchError);
  EXPECT_NE(observer.finished[0].measurement->message.find("refused before launch"), std::string::npos);
  ASSERT_TRUE(outcome.best);
  EXPECT_NE(outcome.best->config, cfg(8, 6));
}

TEST_F(LoopFixture, CompilesAheadOfTheGpu) {
  settings.budget.measurements = 6;
  settings.lookahead = 3;
  settings.finalists = 0;
  backend.measure_delay = std::chrono::milliseconds(50);
  ListTechnique list(space.enumerate());
  run(list);
  ASSERT_EQ(backend.compiles_at_measure.size(), 6u);
  // While candidate i is measured, the next ones were already compiled.
  EXPECT_GE(backend.compiles_at_measure[3], 5);
}

TEST_F(LoopFixture, ReportsProgressWithBestAndEta) {
  settings.budget.measurements = 8;
  backend.measure_delay = std::chrono::milliseconds(2);
  RandomTechnique random(space);
  const TuneOutcome outcome = run(random);
  ASSERT_GE(observer.reports.size(), 9u);
  const TuneProgress& mid = observer.reports[3];
  EXPECT_EQ(mid.phase, "search");
  EXPECT_EQ(mid.planned, 8 + 6);
  EXPECT_TRUE(mid.best_us);
  ASSERT_TRUE(mid.eta_s);
  EXPECT_GT(*mid.eta_s, 0);
  const TuneProgress& last = observer.reports.back();
  EXPECT_EQ(last.phase, "done");
  EXPECT_EQ(last.measured, last.planned);
  EXPECT_EQ(last.best_config, outcome.best->config_key);
  EXPECT_DOUBLE_EQ(*last.best_us, outcome.best->measurement->median_us);
  EXPECT_EQ(last.stop_reason, "budget");
}

TEST_F(LoopFixture, CancellationStopsTheSearchAndSkipsTheFinalists) {
  observer.cancel_after = 3;
  RandomTechnique random(space);
  const TuneOutcome outcome = run(random);
  EXPECT_EQ(outcome.stop_reason, "cancelled");
  EXPECT_EQ(backend.measured.size(), 3u);
}

TEST_F(LoopFixture, TheDefaultIsMeasuredOnceAfterTheSearchWhenTheSearchMissedIt) {
  settings.budget.measurements = 3;
  settings.default_config = cfg(1, 0);  // 19 µs on the bowl
  ListTechnique list({cfg(8, 6), cfg(8, 5), cfg(8, 7)});
  const TuneOutcome outcome = run(list);
  ASSERT_TRUE(outcome.untuned_default);
  EXPECT_EQ(outcome.untuned_default->config, cfg(1, 0));
  EXPECT_DOUBLE_EQ(outcome.untuned_default->measurement->median_us, 19);
  EXPECT_EQ(backend.measured.back(), cfg(1, 0)) << "after the search and its finalists";
  EXPECT_EQ(std::count(backend.measured.begin(), backend.measured.end(), cfg(1, 0)), 1);
  EXPECT_EQ(outcome.best->config, cfg(8, 6));
  EXPECT_EQ(outcome.measurements, 4);
}

TEST_F(LoopFixture, TheDefaultTheSearchMeasuredIsNotMeasuredAgain) {
  settings.budget.measurements = 3;
  settings.default_config = cfg(8, 5);
  ListTechnique list({cfg(8, 6), cfg(8, 5), cfg(2, 2)});
  const TuneOutcome outcome = run(list);
  ASSERT_TRUE(outcome.untuned_default);
  EXPECT_EQ(outcome.untuned_default->config, cfg(8, 5));
  EXPECT_EQ(backend.measured.size(), 3u + 6u) << "the search and the finalists only";
}

TEST_F(LoopFixture, ADefaultFasterThanEverythingTheSearchFoundWins) {
  settings.budget.measurements = 2;
  settings.finalist_rounds = 0;
  settings.default_config = cfg(8, 6);
  ListTechnique list({cfg(1, 0), cfg(2, 1)});
  const TuneOutcome outcome = run(list);
  EXPECT_EQ(outcome.best->config, cfg(8, 6));
}

TEST_F(LoopFixture, ACancelledSearchMeasuresNoDefault) {
  settings.default_config = cfg(1, 0);
  observer.cancel_after = 3;
  ListTechnique list({cfg(8, 6), cfg(8, 5), cfg(8, 7), cfg(8, 4)});
  const TuneOutcome outcome = run(list);
  EXPECT_FALSE(outcome.untuned_default);
  EXPECT_EQ(backend.measured.size(), 3u);
}

}  // namespace
}  // namespace ktune
