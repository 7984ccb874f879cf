// A reduced offline evaluation (two seeds) against the recorded SpMV ground truth, checking
// properties rather than numbers: every strategy reaches the exhaustive best, proposes only
// valid configurations and never one twice, repeats itself for a seed, and model top-k with a
// perfect model needs a single measurement.
#include "search/techniques/offline_eval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "kernels/kernel_family.h"

namespace ktune {
namespace {

class OfflineEval : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    space_ = new ParameterSpace(find_family("spmv")->space({}));
    cases_ = new std::vector<GroundTruthCase>(
        load_ground_truth(std::string(KTUNE_SOURCE_DIR) + "/bench/data/spmv_ground_truth_h200.json", same_space(*space_)));
  }
  static void TearDownTestSuite() {
    delete cases_;
    delete space_;
  }
  static ParameterSpace* space_;
  static std::vector<GroundTruthCase>* cases_;
};

ParameterSpace* OfflineEval::space_ = nullptr;
std::vector<GroundTruthCase>* OfflineEval::cases_ = nullptr;

TEST_F(OfflineEval, GroundTruthCoversTheWholeSpace) {
  ASSERT_EQ(cases_->size(), 22u);
  for (const auto& c : *cases_) {
    EXPECT_EQ(c.time_us.size(), space_->enumerate().size()) << c.label();
    EXPECT_GT(c.best_us, 0) << c.label();
  }
}

TEST_F(OfflineEval, EveryStrategyReachesTheBestWithoutRepeatsOrInvalidConfigurations) {
  const size_t valid = space_->enumerate().size();
  for (Strategy s : all_strategies()) {
    for (const auto& truth : *cases_) {
      for (uint64_t seed = 0; seed < 2; ++seed) {
        const EvalRun run = evaluate(s, truth, *space_, seed, {});
        const std::string what = strategy_name(s) + " " + truth.label() + " seed " + std::to_string(seed);
        ASSERT_EQ(run.sequence.size(), valid) << what;  // stops short on a repeat or running dry
        EXPECT_EQ(std::set<std::string>(run.sequence.begin(), run.sequence.end()).size(), valid) << what;
        for (const auto& key : run.sequence) EXPECT_TRUE(truth.time_us.count(key)) << what << ": " << key;
        EXPECT_DOUBLE_EQ(run.best_ratio.back(), 1.0) << what;
        EXPECT_GE(run.to_tolerance, 1u) << what;
        EXPECT_LE(run.best_ratio[run.to_tolerance - 1], 1.03) << what;
        if (run.to_tolerance > 1) {
          EXPECT_GT(run.best_ratio[run.to_tolerance - 2], 1.03) << what;
        }
      }
    }
  }
}

TEST_F(OfflineEval, SameSeedSameSequenceOtherSeedOtherSequence) {
  const GroundTruthCase& truth = cases_->front();
  for (Strategy s : all_strategies()) {
    const EvalRun a = evaluate(s, truth, *space_, 5, {});
    EXPECT_EQ(evaluate(s, truth, *space_, 5, {}).sequence, a.sequence) << strategy_name(s);
    EXPECT_EQ(evaluate(s, truth, *space_, 5, {}).proposers, a.proposers) << strategy_name(s);
    EXPECT_NE(evaluate(s, truth, *space_, 6, {}).sequence, a.sequence) << strategy_name(s);
  }
}

TEST_F(OfflineEval, APerfectModelNeedsOneMeasurement) {
  for (GroundTruthCase truth : *cases_) {
    for (auto& [key, predicted] : truth.predicted_us) predicted = truth.time_us.at(key);  // the model is the truth
    for (uint64_t seed = 0; seed < 2; ++seed) {
      const EvalRun run = evaluate(Strategy::ModelTopKEnsemble, truth, *space_, seed, {});
      EXPECT_EQ(run.to_tolerance, 1u) << truth.label();
      EXPECT_DOUBLE_EQ(truth.time_us.at(run.sequence.front()), truth.best_us) << truth.label();
      EXPECT_EQ(run.proposers.front(), "model_top_k");
    }
  }
}

TEST_F(OfflineEval, APlanTwinCostsNoMeasurementAndCarriesItsPlansTime) {
  GroundTruthCase truth = cases_->front();
  // The five slowest configurations make one plan and are the model's first five predictions;
  // the measured best is its sixth.
  std::vector<std::pair<double, std::string>> by_time;
  for (const auto& [key, us] : truth.time_us)
    if (std::isfinite(us)) by_time.emplace_back(us, key);
  std::sort(by_time.begin(), by_time.end());
  for (auto& [key, us] : truth.predicted_us) us = 1000;
  const size_t n = by_time.size();
  for (size_t i = 0; i < 5; ++i) {
    truth.predicted_us[by_time[n - 1 - i].second] = 10.0 * (i + 1);
    truth.plan[by_time[n - 1 - i].second] = "one plan";
  }
  truth.predicted_us[by_time[0].second] = 60;
  EvalOptions options;
  options.model_first = 6;
  const EvalRun run = evaluate(Strategy::ModelTopKEnsemble, truth, *space_, 0, options);
  ASSERT_GE(run.sequence.size(), 6u);
  EXPECT_EQ(run.sequence[0], by_time[n - 1].second);
  EXPECT_EQ(run.sequence[5], by_time[0].second);
  // Two measurements: the plan's first configuration, whose time its twins carried, then the best.
  EXPECT_EQ(run.to_tolerance, 2u);
  ASSERT_GE(run.best_ratio.size(), 2u);
  EXPECT_DOUBLE_EQ(run.best_ratio[0], by_time[n - 1].first / truth.best_us);
  EXPECT_DOUBLE_EQ(run.best_ratio[1], 1.0);
}

TEST_F(OfflineEval, TheSeedIsMeasuredFirst) {
  EvalOptions options;
  const Config chosen = space_->enumerate().back();
  options.seed = [&](const GroundTruthCase&, const ParameterSpace&) { return chosen; };
  const EvalRun run = evaluate(Strategy::SeedEnsemble, cases_->front(), *space_, 0, options);
  EXPECT_EQ(run.sequence.front(), space_->canonical(chosen));
  EXPECT_EQ(run.proposers.front(), "seed");
}

TEST_F(OfflineEval, AfterTheSeedComeTheModelsTopK) {
  // The seed, then the model's k best predictions that are not the seed, in predicted order.
  const GroundTruthCase& truth = cases_->front();
  std::vector<std::pair<double, std::string>> ranked;
  for (const auto& [key, us] : truth.predicted_us) ranked.emplace_back(us, key);
  std::sort(ranked.begin(), ranked.end());
  EvalOptions options;
  options.model_first = 4;
  const Config chosen = space_->enumerate().back();
  options.seed = [&](const GroundTruthCase&, const ParameterSpace&) { return chosen; };
  const EvalRun run = evaluate(Strategy::SeedEnsemble, truth, *space_, 0, options);
  std::vector<std::string> expected;
  for (const auto& [us, key] : ranked)
    if (key != space_->canonical(chosen) && expected.size() < options.model_first) expected.push_back(key);
  ASSERT_GT(run.sequence.size(), 1 + options.model_first);
  for (size_t i = 0; i < options.model_first; ++i) {
    EXPECT_EQ(run.sequence[1 + i], expected[i]) << i;
    EXPECT_EQ(run.proposers[1 + i], "model_top_k") << i;
  }
}

}  // namespace
}  // namespace ktune

namespace ktune {
namespace {

// A family with problem parameters: each case is read against its own problem's space and named
// by it, so one matrix at two K is two cases.
TEST(OfflineEvalProblems, EachCaseIsReadAgainstItsProblemsSpace) {
  auto space_up_to = [](int64_t hi) {
    ParameterSpace s;
    s.params = {Parameter::power_of_two("x", 1, hi)};
    return s;
  };
  nlohmann::json workloads = nlohmann::json::array();
  for (int64_t hi : {2, 4}) {
    nlohmann::json configs = nlohmann::json::array();
    for (int64_t x = 1; x <= hi; x *= 2)
      configs.push_back({{"config", "x=" + std::to_string(x)},
                         {"predicted_us", 1.0},
                         {"measurement", {{"status", "ok"}, {"median_us", 10.0 / static_cast<double>(x)}}}});
    workloads.push_back({{"workload", "m"}, {"problem", {{"k", hi}}}, {"dtype", "f32"}, {"configs", configs}});
  }
  const std::string path = ::testing::TempDir() + "offline_eval_problems.json";
  std::ofstream(path) << nlohmann::json{{"workloads", workloads}}.dump();
  const std::vector<GroundTruthCase> cases = load_ground_truth(path, [&](const std::string& problem, const std::string&) {
    return space_up_to(nlohmann::json::parse(problem).at("k").get<int64_t>());
  });
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].label(), "m {\"k\":2}/f32");
  EXPECT_EQ(cases[1].label(), "m {\"k\":4}/f32");
  EXPECT_EQ(cases[1].time_us.size(), 3u);
  EXPECT_DOUBLE_EQ(cases[1].best_us, 2.5);
  // Against one space for both, the first case lacks configurations and is refused.
  EXPECT_THROW(load_ground_truth(path, same_space(space_up_to(4))), std::runtime_error);
}

}  // namespace
}  // namespace ktune
