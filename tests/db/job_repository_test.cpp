#include "db/job_repository.h"

#include <gtest/gtest.h>

#include <thread>

#include "db_test_support.h"

namespace ktune {
namespace {

using JobRepositoryTest = dbtest::DbTest;

std::vector<std::string> ids_of(const std::vector<JobRecord>& jobs) {
  std::vector<std::string> ids;
  for (const JobRecord& j : jobs) ids.push_back(j.id);
  return ids;
}

TEST_F(JobRepositoryTest, CreateStoresAQueuedJob) {
  open();
  JobRepository jobs(*db_);
  const nlohmann::json request = {{"kernel", "spmv"}, {"budget", {{"measurements", 64}}}};
  const JobRecord created = jobs.create("job-1", "dedup-1", request);
  EXPECT_EQ(created.id, "job-1");
  EXPECT_EQ(created.state, JobState::Queued);
  const auto got = jobs.get("job-1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->dedup_key, "dedup-1");
  EXPECT_EQ(got->state, JobState::Queued);
  EXPECT_EQ(got->request, request);
  EXPECT_EQ(got->progress_done, 0);
  EXPECT_EQ(got->progress_planned, 0);
  EXPECT_FALSE(got->best.has_value());
  EXPECT_FALSE(got->error.has_value());
  EXPECT_FALSE(got->search_state.has_value());
  EXPECT_FALSE(got->created_at.empty());
  EXPECT_FALSE(jobs.get("job-2").has_value());
}

TEST_F(JobRepositoryTest, DuplicateIdIsRefused) {
  open();
  JobRepository jobs(*db_);
  jobs.create("job-1", "a", nlohmann::json::object());
  EXPECT_THROW(jobs.create("job-1", "b", nlohmann::json::object()), SQLite::Exception);
  EXPECT_EQ(jobs.get("job-1")->dedup_key, "a");
}

TEST_F(JobRepositoryTest, LifecycleStoresProgressBestAndSearchState) {
  open();
  JobRepository jobs(*db_);
  const std::string created_updated_at =
      jobs.create("job", "k", nlohmann::json::object()).updated_at;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // timestamps have 1 ms resolution
  ASSERT_TRUE(jobs.update_state("job", JobState::Running));
  ASSERT_TRUE(jobs.update_progress("job", 3, 64));
  const nlohmann::json best = {{"config", {{"lanes", 8}}}, {"predicted_us", 12.5}};
  ASSERT_TRUE(jobs.set_best("job", best));
  const nlohmann::json search = {{"bandit", {0.5, 0.25}}, {"tried", {"a", "b"}}};
  ASSERT_TRUE(jobs.set_search_state("job", search));
  auto running = jobs.get("job");
  EXPECT_EQ(running->state, JobState::Running);
  EXPECT_EQ(running->progress_done, 3);
  EXPECT_EQ(running->progress_planned, 64);
  EXPECT_EQ(running->best, best);
  EXPECT_EQ(running->search_state, search);
  EXPECT_GT(running->updated_at, created_updated_at);

  ASSERT_TRUE(jobs.update_state("job", JobState::Failed, std::string("device fault")));
  auto failed = jobs.get("job");
  EXPECT_EQ(failed->state, JobState::Failed);
  EXPECT_EQ(failed->error, "device fault");
  EXPECT_EQ(failed->best, best);
}

TEST_F(JobRepositoryTest, FinishedJobsStayFinished) {
  open();
  JobRepository jobs(*db_);
  jobs.create("job", "k", nlohmann::json::object());
  ASSERT_TRUE(jobs.update_state("job", JobState::Cancelled));
  EXPECT_FALSE(jobs.update_state("job", JobState::Done));
  EXPECT_FALSE(jobs.update_state("job", JobState::Running));
  EXPECT_EQ(jobs.get("job")->state, JobState::Cancelled);
}

TEST_F(JobRepositoryTest, UpdatesOfUnknownJobsReportFalse) {
  open();
  JobRepository jobs(*db_);
  EXPECT_FALSE(jobs.update_state("nope", JobState::Running));
  EXPECT_FALSE(jobs.update_progress("nope", 1, 2));
  EXPECT_FALSE(jobs.set_best("nope", nlohmann::json::object()));
  EXPECT_FALSE(jobs.set_search_state("nope", nlohmann::json::object()));
}

TEST_F(JobRepositoryTest, ListUnfinishedHasQueuedAndRunningOldestFirst) {
  open();
  JobRepository jobs(*db_);
  for (const char* id : {"a", "b", "c", "d", "e"}) jobs.create(id, id, nlohmann::json::object());
  jobs.update_state("a", JobState::Running);
  jobs.update_state("b", JobState::Done);
  jobs.update_state("c", JobState::Failed, std::string("x"));
  jobs.update_state("e", JobState::Cancelled);
  EXPECT_EQ(ids_of(jobs.list_unfinished()), (std::vector<std::string>{"a", "d"}));
  // A restart puts running jobs back in the queue; they stay unfinished.
  ASSERT_TRUE(jobs.update_state("a", JobState::Queued));
  EXPECT_EQ(ids_of(jobs.list_unfinished()), (std::vector<std::string>{"a", "d"}));
}

TEST_F(JobRepositoryTest, FindActiveByDedupKeyIgnoresFinishedJobs) {
  open();
  JobRepository jobs(*db_);
  jobs.create("old", "same", nlohmann::json::object());
  jobs.update_state("old", JobState::Done);
  EXPECT_FALSE(jobs.find_active_by_dedup_key("same").has_value());
  jobs.create("new", "same", nlohmann::json::object());
  jobs.create("other", "different", nlohmann::json::object());
  EXPECT_EQ(jobs.find_active_by_dedup_key("same")->id, "new");
  jobs.update_state("new", JobState::Running);
  EXPECT_EQ(jobs.find_active_by_dedup_key("same")->id, "new");
  EXPECT_FALSE(jobs.find_active_by_dedup_key("unknown").has_value());
}

TEST_F(JobRepositoryTest, ListRecentIsNewestFirstAndLimited) {
  open();
  JobRepository jobs(*db_);
  for (const char* id : {"j1", "j2", "j3", "j4"}) jobs.create(id, id, nlohmann::json::object());
  EXPECT_EQ(ids_of(jobs.list_recent(3)), (std::vector<std::string>{"j4", "j3", "j2"}));
  EXPECT_EQ(ids_of(jobs.list_recent(10)).size(), 4u);
}

TEST_F(JobRepositoryTest, ListRecentKeepsOnlyTheStatesAsked) {
  open();
  JobRepository jobs(*db_);
  for (const char* id : {"queued", "running", "done", "failed", "also-running"}) jobs.create(id, id, nlohmann::json::object());
  jobs.update_state("running", JobState::Running);
  jobs.update_state("done", JobState::Done);
  jobs.update_state("failed", JobState::Failed, std::string("x"));
  jobs.update_state("also-running", JobState::Running);
  EXPECT_EQ(ids_of(jobs.list_recent(10, {JobState::Running})), (std::vector<std::string>{"also-running", "running"}));
  EXPECT_EQ(ids_of(jobs.list_recent(1, {JobState::Running})), (std::vector<std::string>{"also-running"}));
  EXPECT_EQ(ids_of(jobs.list_recent(10, {JobState::Queued, JobState::Running})),
            (std::vector<std::string>{"also-running", "running", "queued"}));
  EXPECT_TRUE(jobs.list_recent(10, {JobState::Cancelled}).empty());
  EXPECT_EQ(jobs.list_recent(10, {}).size(), 5u);
}

}  // namespace
}  // namespace ktune
