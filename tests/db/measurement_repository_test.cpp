#include "db/measurement_repository.h"

#include <gtest/gtest.h>

#include "db/candidate_repository.h"
#include "db_test_support.h"

namespace ktune {
namespace {

class MeasurementRepositoryTest : public dbtest::DbTest {
 protected:
  int64_t add_candidate(const std::string& job, const std::string& key) {
    CandidateRecord c;
    c.job_id = job;
    c.workload_id = workload_;
    c.kernel = "spmv";
    c.dtype = "f64";
    c.config = {{"key", key}};
    c.config_key = key;
    return CandidateRepository(*db_).add(c);
  }
  void SetUp() override {
    DbTest::SetUp();
    open();
    workload_ = add_workload("w");
    add_job("job");
    add_job("other");
  }
  int64_t workload_ = 0;
};

TEST_F(MeasurementRepositoryTest, ListJoinsEachMeasurementWithItsCandidateInOrder) {
  MeasurementRepository measurements(*db_);
  const int64_t fast = add_candidate("job", "fast");
  const int64_t broken = add_candidate("job", "broken");
  const int64_t elsewhere = add_candidate("other", "fast");

  MeasurementRecord ok;
  ok.candidate_id = fast;
  ok.status = MeasurementStatus::Ok;
  ok.median_us = 10.5;
  ok.iqr_us = 0.25;
  ok.count = 31;
  ok.max_rel_error = 1e-7;
  ok.hot = true;
  MeasurementRecord failed;
  failed.candidate_id = broken;
  failed.status = MeasurementStatus::CompileError;
  failed.message = "error: expected ';'";
  MeasurementRecord foreign = ok;
  foreign.candidate_id = elsewhere;

  const int64_t ok_id = measurements.add(ok);
  const int64_t failed_id = measurements.add(failed);
  measurements.add(foreign);

  const auto list = measurements.list_for_job("job");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].measurement.id, ok_id);
  EXPECT_EQ(list[0].candidate.id, fast);
  EXPECT_EQ(list[0].candidate.config_key, "fast");
  EXPECT_EQ(list[0].measurement.status, MeasurementStatus::Ok);
  EXPECT_EQ(list[0].measurement.median_us, 10.5);
  EXPECT_EQ(list[0].measurement.iqr_us, 0.25);
  EXPECT_EQ(list[0].measurement.count, 31);
  EXPECT_EQ(list[0].measurement.max_rel_error, 1e-7);
  EXPECT_TRUE(list[0].measurement.hot);
  EXPECT_FALSE(list[0].measurement.created_at.empty());

  EXPECT_EQ(list[1].measurement.id, failed_id);
  EXPECT_EQ(list[1].candidate.config_key, "broken");
  EXPECT_EQ(list[1].measurement.status, MeasurementStatus::CompileError);
  EXPECT_EQ(list[1].measurement.message, "error: expected ';'");
  EXPECT_FALSE(list[1].measurement.median_us.has_value());
  EXPECT_FALSE(list[1].measurement.max_rel_error.has_value());
  EXPECT_FALSE(list[1].measurement.hot);
}

TEST_F(MeasurementRepositoryTest, CountMatchesMeasurementsOfTheJobOnly) {
  MeasurementRepository measurements(*db_);
  const int64_t a = add_candidate("job", "a");
  const int64_t b = add_candidate("other", "b");
  MeasurementRecord m;
  m.candidate_id = a;
  for (int i = 0; i < 3; ++i) measurements.add(m);
  m.candidate_id = b;
  m.status = MeasurementStatus::Timeout;
  measurements.add(m);
  EXPECT_EQ(measurements.count_for_job("job"), 3);
  EXPECT_EQ(measurements.count_for_job("other"), 1);
  EXPECT_EQ(measurements.count_for_job("none"), 0);
}

TEST_F(MeasurementRepositoryTest, MeasurementOfMissingCandidateIsRefused) {
  MeasurementRecord m;
  m.candidate_id = 12345;
  EXPECT_THROW(MeasurementRepository(*db_).add(m), SQLite::Exception);
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("SELECT count(*) FROM measurements").getInt64(), 0);
}

TEST_F(MeasurementRepositoryTest, EveryStatusIsAccepted) {
  MeasurementRepository measurements(*db_);
  const int64_t c = add_candidate("job", "c");
  const std::vector<MeasurementStatus> all = {
      MeasurementStatus::Ok,    MeasurementStatus::CompileError, MeasurementStatus::VerifyFailed,
      MeasurementStatus::Fault, MeasurementStatus::Timeout,      MeasurementStatus::Skipped};
  for (MeasurementStatus s : all) {
    MeasurementRecord m;
    m.candidate_id = c;
    m.status = s;
    measurements.add(m);
  }
  const auto list = measurements.list_for_job("job");
  ASSERT_EQ(list.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(list[i].measurement.status, all[i]);
}

}  // namespace
}  // namespace ktune
