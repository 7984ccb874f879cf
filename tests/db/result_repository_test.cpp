#include "db/result_repository.h"

#include <gtest/gtest.h>

#include <thread>

#include "db_test_support.h"

namespace ktune {
namespace {

class ResultRepositoryTest : public dbtest::DbTest {
 protected:
  void SetUp() override {
    DbTest::SetUp();
    open();
    workload_a_ = add_workload("sig-a");
    workload_b_ = add_workload("sig-b");
    workload_graph_ = add_workload("sig-g", "graph");
    device_ = add_device("fp-1");
    other_device_ = add_device("fp-2");
    add_job("job-1");
  }

  ResultRecord result(int64_t workload, int64_t device, double predicted_us) const {
    ResultRecord r;
    r.workload_id = workload;
    r.kernel = "spmv";
    r.dtype = "f32";
    r.device_id = device;
    r.config = {{"lanes", 8}};
    r.answer = {{"kernel", "spmv"}, {"predicted_us", predicted_us}};
    r.source = ResultSource::Model;
    r.predicted_us = predicted_us;
    r.provenance = {{"service_version", "0.1.0"}};
    return r;
  }

  int64_t workload_a_ = 0, workload_b_ = 0, workload_graph_ = 0, device_ = 0, other_device_ = 0;
};

TEST_F(ResultRepositoryTest, UpsertThenGetExactRoundTrips) {
  ResultRepository results(*db_);
  ResultRecord r = result(workload_a_, device_, 12.5);
  r.source = ResultSource::Measured;
  r.measured_us = 11.75;
  r.vendor = {{"vendor", "cusparse-csr-alg2"}, {"median_us", 15.0}};
  r.job_id = "job-1";
  const int64_t id = results.upsert(r);
  const auto got = results.get_exact("sig-a", "spmv", "{}", "f32", "fp-1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->id, id);
  EXPECT_EQ(got->workload_id, workload_a_);
  EXPECT_EQ(got->device_id, device_);
  EXPECT_EQ(got->config, r.config);
  EXPECT_EQ(got->answer, r.answer);
  EXPECT_EQ(got->source, ResultSource::Measured);
  EXPECT_EQ(got->predicted_us, 12.5);
  EXPECT_EQ(got->measured_us, 11.75);
  EXPECT_EQ(got->vendor, r.vendor);
  EXPECT_EQ(got->provenance, r.provenance);
  EXPECT_EQ(got->job_id, "job-1");
  EXPECT_FALSE(got->updated_at.empty());
}

TEST_F(ResultRepositoryTest, GetExactNeedsEveryPartOfTheKeyToMatch) {
  ResultRepository results(*db_);
  results.upsert(result(workload_a_, device_, 12.5));
  EXPECT_TRUE(results.get_exact("sig-a", "spmv", "{}", "f32", "fp-1").has_value());
  EXPECT_FALSE(results.get_exact("sig-b", "spmv", "{}", "f32", "fp-1").has_value());
  EXPECT_FALSE(results.get_exact("sig-a", "spmm", "{}", "f32", "fp-1").has_value());
  EXPECT_FALSE(results.get_exact("sig-a", "spmv", "{}", "f64", "fp-1").has_value());
  EXPECT_FALSE(results.get_exact("sig-a", "spmv", "{}", "f32", "fp-2").has_value());
}

TEST_F(ResultRepositoryTest, SecondUpsertReplacesTheResultAndKeepsItsId) {
  ResultRepository results(*db_);
  ResultRecord first = result(workload_a_, device_, 20.0);
  first.job_id = "job-1";
  first.vendor = {{"vendor", "x"}};
  const int64_t id = results.upsert(first);
  const std::string first_updated_at =
      results.get_exact("sig-a", "spmv", "{}", "f32", "fp-1")->updated_at;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // timestamps have 1 ms resolution

  ResultRecord better = result(workload_a_, device_, 9.0);
  better.config = {{"lanes", 16}};
  better.source = ResultSource::Measured;
  better.measured_us = 8.5;
  EXPECT_EQ(results.upsert(better), id);
  const auto got = results.get_exact("sig-a", "spmv", "{}", "f32", "fp-1");
  EXPECT_EQ(got->config, better.config);
  EXPECT_EQ(got->predicted_us, 9.0);
  EXPECT_EQ(got->measured_us, 8.5);
  EXPECT_EQ(got->source, ResultSource::Measured);
  EXPECT_FALSE(got->job_id.has_value());
  EXPECT_FALSE(got->vendor.has_value());
  EXPECT_GT(got->updated_at, first_updated_at);
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("SELECT count(*) FROM results").getInt64(), 1);
}

TEST_F(ResultRepositoryTest, ReportJoinsWorkloadsAndDevices) {
  ResultRepository results(*db_);
  results.upsert(result(workload_b_, device_, 2.0));
  results.upsert(result(workload_a_, other_device_, 1.0));
  ResultRecord f64 = result(workload_a_, device_, 3.0);
  f64.dtype = "f64";
  results.upsert(f64);
  const auto report = results.list_report();
  ASSERT_EQ(report.size(), 3u);
  // Ordered by kernel, dtype, workload, device.
  EXPECT_EQ(report[0].result.dtype, "f32");
  EXPECT_EQ(report[0].workload.signature, "sig-a");
  EXPECT_EQ(report[0].device.fingerprint, "fp-2");
  EXPECT_EQ(report[0].device.name, "GPU fp-2");
  EXPECT_EQ(report[0].result.predicted_us, 1.0);
  EXPECT_EQ(report[1].workload.signature, "sig-b");
  EXPECT_EQ(report[1].workload.nnz, 30);
  EXPECT_EQ(report[1].device.fingerprint, "fp-1");
  EXPECT_EQ(report[2].result.dtype, "f64");
  for (const ReportRow& row : report) {
    EXPECT_EQ(row.result.workload_id, row.workload.id);
    EXPECT_EQ(row.result.device_id, row.device.id);
  }
}

TEST_F(ResultRepositoryTest, NearestCandidatesShareKernelDtypeAndDevice) {
  ResultRepository results(*db_);
  results.upsert(result(workload_a_, device_, 1.0));
  results.upsert(result(workload_b_, device_, 2.0));
  results.upsert(result(workload_graph_, other_device_, 3.0));
  ResultRecord f64 = result(workload_b_, device_, 4.0);
  f64.dtype = "f64";
  results.upsert(f64);

  const auto near = results.nearest_candidates("spmv", "{}", "f32", "fp-1");
  ASSERT_EQ(near.size(), 2u);
  EXPECT_EQ(near[0].workload.signature, "sig-a");
  EXPECT_EQ(near[0].workload.id, workload_a_);
  EXPECT_EQ(near[0].workload.vector, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(near[0].result.predicted_us, 1.0);
  EXPECT_EQ(near[1].workload.signature, "sig-b");
  EXPECT_EQ(near[1].result.predicted_us, 2.0);
  EXPECT_EQ(results.nearest_candidates("spmv", "{}", "f32", "fp-2").size(), 1u);
  EXPECT_TRUE(results.nearest_candidates("spmv", "{}", "f32", "fp-unknown").empty());
}

TEST_F(ResultRepositoryTest, ResultsSurviveTheirJobBeingDeleted) {
  ResultRepository results(*db_);
  ResultRecord r = result(workload_a_, device_, 1.0);
  r.job_id = "job-1";
  results.upsert(r);
  db_->write([](SQLite::Database& c) { c.exec("DELETE FROM jobs WHERE id = 'job-1'"); });
  const auto got = results.get_exact("sig-a", "spmv", "{}", "f32", "fp-1");
  ASSERT_TRUE(got.has_value());
  EXPECT_FALSE(got->job_id.has_value());
}

}  // namespace
}  // namespace ktune
