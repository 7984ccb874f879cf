#include "db/baseline_repository.h"

#include <gtest/gtest.h>

#include "db_test_support.h"

namespace ktune {
namespace {

using BaselineRepositoryTest = dbtest::DbTest;

BaselineRecord baseline(int64_t workload, int64_t device, const std::string& vendor,
                        double median_us) {
  BaselineRecord b;
  b.workload_id = workload;
  b.device_id = device;
  b.kernel = "spmv";
  b.dtype = "f32";
  b.vendor = vendor;
  b.median_us = median_us;
  b.iqr_us = median_us / 100;
  b.count = 25;
  return b;
}

TEST_F(BaselineRepositoryTest, ListForHasOnlyItsKeyFastestFirst) {
  open();
  const int64_t w = add_workload("w"), other_w = add_workload("w2");
  const int64_t d = add_device("d"), other_d = add_device("d2");
  BaselineRepository baselines(*db_);
  const int64_t slow = baselines.add(baseline(w, d, "cusparse-csr-alg1", 20.0));
  const int64_t fast = baselines.add(baseline(w, d, "cusparse-csr-alg2", 12.5));
  baselines.add(baseline(other_w, d, "cusparse-csr-alg2", 1.0));
  baselines.add(baseline(w, other_d, "cusparse-csr-alg2", 1.0));
  BaselineRecord f64 = baseline(w, d, "cusparse-csr-alg2", 1.0);
  f64.dtype = "f64";
  baselines.add(f64);

  const auto list = baselines.list_for(w, d, "spmv", "f32");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].id, fast);
  EXPECT_EQ(list[0].vendor, "cusparse-csr-alg2");
  EXPECT_EQ(list[0].median_us, 12.5);
  EXPECT_EQ(list[0].iqr_us, 0.125);
  EXPECT_EQ(list[0].count, 25);
  EXPECT_EQ(list[0].workload_id, w);
  EXPECT_EQ(list[0].device_id, d);
  EXPECT_FALSE(list[0].created_at.empty());
  EXPECT_EQ(list[1].id, slow);
  EXPECT_TRUE(baselines.list_for(w, d, "spmm", "f32").empty());
}

TEST_F(BaselineRepositoryTest, BaselineForMissingDeviceIsRefused) {
  open();
  const int64_t w = add_workload("w");
  EXPECT_THROW(BaselineRepository(*db_).add(baseline(w, 77, "cublas", 1.0)), SQLite::Exception);
}

}  // namespace
}  // namespace ktune
