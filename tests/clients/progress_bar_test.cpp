#include "clients/progress_bar.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ktune {
namespace {

using nlohmann::json;

// The cells between the brackets, and how many of them are filled.
struct Bar {
  int cells = 0;
  int filled = 0;
};

Bar bar_of(const std::string& line) {
  const size_t open = line.find('[');
  const size_t close = line.find(']');
  const std::string inside = line.substr(open + 1, close - open - 1);
  return {static_cast<int>(inside.size()), static_cast<int>(std::count(inside.begin(), inside.end(), '#'))};
}

JobProgress progress(long done, long planned, const std::string& state = "running") {
  JobProgress p;
  p.state = state;
  p.done = done;
  p.planned = planned;
  return p;
}

TEST(ProgressBar, HasExactlyTheRequestedNumberOfCells) {
  for (int width : {1, 10, 30, 77}) {
    EXPECT_EQ(bar_of(render_progress_bar(progress(3, 8), width)).cells, width);
  }
}

TEST(ProgressBar, FillsInProportionAndShowsThePercentage) {
  const std::string quarter = render_progress_bar(progress(16, 64), 20);
  EXPECT_EQ(bar_of(quarter).filled, 5);
  EXPECT_NE(quarter.find(" 25% 16/64"), std::string::npos) << quarter;

  const std::string half = render_progress_bar(progress(1, 2), 30);
  EXPECT_EQ(bar_of(half).filled, 15);
  EXPECT_NE(half.find(" 50%"), std::string::npos) << half;
}

TEST(ProgressBar, PercentageIsExactForRatiosThatFloatingPointRoundsDown) {
  const std::string line = render_progress_bar(progress(29, 100), 100);
  EXPECT_NE(line.find(" 29% "), std::string::npos) << line;
  EXPECT_EQ(bar_of(line).filled, 29);
}

TEST(ProgressBar, ClampsMoreThanPlannedToFull) {
  const std::string line = render_progress_bar(progress(90, 64), 10);
  EXPECT_EQ(bar_of(line).filled, 10);
  EXPECT_NE(line.find("100%"), std::string::npos) << line;
  EXPECT_EQ(line.find("140%"), std::string::npos) << line;
}

TEST(ProgressBar, ClampsNegativeAndUnplannedToEmpty) {
  for (const JobProgress& p : {progress(-5, 10), progress(3, 0), progress(0, -1)}) {
    const std::string line = render_progress_bar(p, 12);
    EXPECT_EQ(bar_of(line).filled, 0) << line;
    EXPECT_EQ(bar_of(line).cells, 12) << line;
    EXPECT_NE(line.find("  0%"), std::string::npos) << line;
  }
}

TEST(ProgressBar, ZeroOrNegativeWidthLeavesAnEmptyBar) {
  EXPECT_EQ(bar_of(render_progress_bar(progress(5, 10), 0)).cells, 0);
  EXPECT_EQ(bar_of(render_progress_bar(progress(5, 10), -4)).cells, 0);
}

TEST(ProgressBar, ShowsTheStateAndTheBestTimeWithItsKind) {
  JobProgress p = progress(4, 8, "running");
  EXPECT_EQ(render_progress_bar(p, 10).find("best"), std::string::npos);
  p.best_us = 12.5;
  EXPECT_NE(render_progress_bar(p, 10).find("best 12.50 us predicted"), std::string::npos);
  p.best_measured = true;
  const std::string line = render_progress_bar(p, 10);
  EXPECT_NE(line.find("best 12.50 us measured"), std::string::npos) << line;
  EXPECT_EQ(line.substr(line.size() - 7), "running");
}

TEST(ProgressLine, SaysStateCountsAndBest) {
  JobProgress p = progress(32, 64, "running");
  EXPECT_EQ(render_progress_line(p), "running: 32/64 done");
  p.best_us = 3.0;
  p.best_measured = true;
  EXPECT_EQ(render_progress_line(p), "running: 32/64 done, best 3.00 us measured");
}

TEST(JobProgressFromJson, ReadsStateCountsAndPrefersTheMeasuredTime) {
  const json job = {{"state", "running"},
                    {"progress", {{"done", 3}, {"planned", 9}}},
                    {"best", {{"predicted_us", 20.0}, {"measured_us", 18.5}}}};
  const JobProgress p = job_progress(job);
  EXPECT_EQ(p.state, "running");
  EXPECT_EQ(p.done, 3);
  EXPECT_EQ(p.planned, 9);
  ASSERT_TRUE(p.best_us.has_value());
  EXPECT_DOUBLE_EQ(*p.best_us, 18.5);
  EXPECT_TRUE(p.best_measured);
}

TEST(JobProgressFromJson, FallsBackToThePredictedTime) {
  const json job = {{"state", "running"}, {"best", {{"predicted_us", 20.0}, {"measured_us", nullptr}}}};
  const JobProgress p = job_progress(job);
  ASSERT_TRUE(p.best_us.has_value());
  EXPECT_DOUBLE_EQ(*p.best_us, 20.0);
  EXPECT_FALSE(p.best_measured);
}

TEST(JobProgressFromJson, MissingOrNullFieldsReadAsNothingYet) {
  for (const json& job : {json::object(), json{{"state", "queued"}, {"progress", nullptr}, {"best", nullptr}},
                          json{{"progress", {{"done", "three"}}}}, json(nullptr)}) {
    const JobProgress p = job_progress(job);
    EXPECT_EQ(p.done, 0) << job;
    EXPECT_EQ(p.planned, 0) << job;
    EXPECT_FALSE(p.best_us.has_value()) << job;
  }
}

TEST(JobProgressFromJson, ReadsTheSearchsBestConfigAndEta) {
  const json job = {{"state", "running"},
                    {"progress", {{"done", 5}, {"planned", 20}, {"best_us", 7.25}, {"best_config", "block=256"},
                                  {"eta_s", 65.2}}},
                    {"best", nullptr}};
  const JobProgress p = job_progress(job);
  ASSERT_TRUE(p.best_us.has_value());
  EXPECT_DOUBLE_EQ(*p.best_us, 7.25);
  EXPECT_EQ(p.best_config, "block=256");
  ASSERT_TRUE(p.eta_s.has_value());
  EXPECT_EQ(render_progress_line(p), "running: 5/20 done, best 7.25 us predicted (block=256), eta 1m05s");
  const std::string bar = render_progress_bar(p, 4);
  EXPECT_NE(bar.find("(block=256)  eta 1m05s  running"), std::string::npos) << bar;
}

TEST(ProgressLine, NoEtaOnceFinished) {
  JobProgress p = progress(20, 20, "done");
  p.eta_s = 3;
  EXPECT_EQ(render_progress_line(p), "done: 20/20 done");
}

TEST(JobStates, OnlyDoneFailedAndCancelledAreFinished) {
  EXPECT_TRUE(is_finished_state("done"));
  EXPECT_TRUE(is_finished_state("failed"));
  EXPECT_TRUE(is_finished_state("cancelled"));
  EXPECT_FALSE(is_finished_state("queued"));
  EXPECT_FALSE(is_finished_state("running"));
  EXPECT_FALSE(is_finished_state(""));
}

}  // namespace
}  // namespace ktune
