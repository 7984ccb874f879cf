#include "db/upload_repository.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "db_test_support.h"

namespace ktune {
namespace {

using UploadRepositoryTest = dbtest::DbTest;

TEST_F(UploadRepositoryTest, PutIsIdempotentAndContentRoundTripsByteForByte) {
  open();
  const int64_t workload = add_workload("sig");
  UploadRepository uploads(*db_);
  const std::string content = dbtest::all_byte_values();
  EXPECT_TRUE(uploads.put("up-1", workload, content));
  EXPECT_FALSE(uploads.put("up-1", workload, "other bytes"));
  const auto got = uploads.get("up-1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->id, "up-1");
  EXPECT_EQ(got->workload_id, workload);
  EXPECT_EQ(got->content, content);
  EXPECT_EQ(got->bytes, static_cast<int64_t>(content.size()));
  EXPECT_FALSE(uploads.get("up-2").has_value());
}

TEST_F(UploadRepositoryTest, RealGzipMatrixRoundTrips) {
  std::ifstream file(KTUNE_SOURCE_DIR "/../shared/data/matrices/hammond.mtx.gz", std::ios::binary);
  ASSERT_TRUE(file) << "the shared matrices are missing";
  const std::string content{std::istreambuf_iterator<char>(file), {}};
  open();
  UploadRepository uploads(*db_);
  uploads.put("mtx", add_workload("sig"), content);
  EXPECT_EQ(uploads.get("mtx")->content, content);
}

TEST_F(UploadRepositoryTest, UploadForMissingWorkloadIsRefused) {
  open();
  EXPECT_THROW(UploadRepository(*db_).put("orphan", 42, "x"), SQLite::Exception);
  EXPECT_FALSE(UploadRepository(*db_).get("orphan").has_value());
}

}  // namespace
}  // namespace ktune
