#include "db/candidate_repository.h"

#include <gtest/gtest.h>

#include "db/measurement_repository.h"
#include "db_test_support.h"

namespace ktune {
namespace {

using CandidateRepositoryTest = dbtest::DbTest;

CandidateRecord candidate(const std::string& job, int64_t workload, const std::string& key) {
  CandidateRecord c;
  c.job_id = job;
  c.workload_id = workload;
  c.kernel = "spmv";
  c.dtype = "f32";
  c.config = {{"key", key}};
  c.config_key = key;
  return c;
}

TEST_F(CandidateRepositoryTest, RoundTripWithAndWithoutOptionalFields) {
  open();
  const int64_t workload = add_workload("w");
  const int64_t device = add_device("fp");
  add_job("job");
  CandidateRepository candidates(*db_);
  CandidateRecord full = candidate("job", workload, "lanes=8");
  full.device_id = device;
  full.config = {{"lanes", 8}, {"schedule", "subwarp"}};
  full.kernel_key = "hash-1";
  full.predicted_us = 12.75;
  const int64_t full_id = candidates.add(full);
  const int64_t bare_id = candidates.add(candidate("job", workload, "lanes=4"));
  EXPECT_NE(full_id, bare_id);

  const auto all = candidates.list_for_job("job");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, full_id);
  EXPECT_EQ(all[0].job_id, "job");
  EXPECT_EQ(all[0].workload_id, workload);
  EXPECT_EQ(all[0].kernel, "spmv");
  EXPECT_EQ(all[0].dtype, "f32");
  EXPECT_EQ(all[0].device_id, device);
  EXPECT_EQ(all[0].config, full.config);
  EXPECT_EQ(all[0].config_key, "lanes=8");
  EXPECT_EQ(all[0].kernel_key, "hash-1");
  EXPECT_EQ(all[0].predicted_us, 12.75);
  EXPECT_EQ(all[1].id, bare_id);
  EXPECT_FALSE(all[1].device_id.has_value());
  EXPECT_FALSE(all[1].kernel_key.has_value());
  EXPECT_FALSE(all[1].predicted_us.has_value());
}

TEST_F(CandidateRepositoryTest, AddIsIdempotentPerJobAndConfigKey) {
  open();
  const int64_t workload = add_workload("w");
  add_job("job");
  add_job("other");
  CandidateRepository candidates(*db_);
  const int64_t id = candidates.add(candidate("job", workload, "lanes=8"));
  EXPECT_EQ(candidates.add(candidate("job", workload, "lanes=8")), id);
  EXPECT_NE(candidates.add(candidate("other", workload, "lanes=8")), id);
  EXPECT_EQ(candidates.list_for_job("job").size(), 1u);
}

TEST_F(CandidateRepositoryTest, RepeatFillsInKernelKeyAndPredictionButNeverErasesThem) {
  open();
  const int64_t workload = add_workload("w");
  add_job("job");
  CandidateRepository candidates(*db_);
  CandidateRecord c = candidate("job", workload, "k");
  c.predicted_us = 5.0;
  const int64_t id = candidates.add(c);
  CandidateRecord compiled = candidate("job", workload, "k");
  compiled.kernel_key = "hash";
  EXPECT_EQ(candidates.add(compiled), id);
  const CandidateRecord stored = candidates.list_for_job("job").at(0);
  EXPECT_EQ(stored.kernel_key, "hash");
  EXPECT_EQ(stored.predicted_us, 5.0);
}

TEST_F(CandidateRepositoryTest, ListWithMeasurementsPairsEachCandidateWithItsLatestMeasurement) {
  open();
  const int64_t workload = add_workload("w");
  add_job("job");
  add_job("other");
  CandidateRepository candidates(*db_);
  MeasurementRepository measurements(*db_);
  CandidateRecord predicted = candidate("job", workload, "predicted-only");
  predicted.predicted_us = 7.5;
  const int64_t unmeasured = candidates.add(predicted);
  const int64_t remeasured = candidates.add(candidate("job", workload, "remeasured"));
  const int64_t elsewhere = candidates.add(candidate("other", workload, "remeasured"));
  MeasurementRecord m;
  m.candidate_id = remeasured;
  m.status = MeasurementStatus::Timeout;
  measurements.add(m);
  m.status = MeasurementStatus::Ok;
  m.median_us = 3.25;
  const int64_t latest = measurements.add(m);
  m.candidate_id = elsewhere;
  measurements.add(m);

  const auto listed = candidates.list_with_measurements("job");
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].candidate.id, unmeasured);
  EXPECT_EQ(listed[0].candidate.predicted_us, 7.5);
  EXPECT_FALSE(listed[0].measurement.has_value());
  EXPECT_EQ(listed[1].candidate.id, remeasured);
  ASSERT_TRUE(listed[1].measurement.has_value());
  EXPECT_EQ(listed[1].measurement->id, latest);
  EXPECT_EQ(listed[1].measurement->status, MeasurementStatus::Ok);
  EXPECT_EQ(listed[1].measurement->median_us, 3.25);
  EXPECT_TRUE(candidates.list_with_measurements("no-such-job").empty());
}

TEST_F(CandidateRepositoryTest, CandidateOfMissingJobIsRefused) {
  open();
  const int64_t workload = add_workload("w");
  EXPECT_THROW(CandidateRepository(*db_).add(candidate("no-such-job", workload, "k")),
               SQLite::Exception);
}

}  // namespace
}  // namespace ktune
