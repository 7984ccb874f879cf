#include "db/upload_repository.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "db/result_repository.h"
#include "db_test_support.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

class UploadRepositoryTest : public dbtest::DbTest {
 protected:
  static constexpr UploadQuota kRoomy{1000, 1 << 20};

  void answer_for(int64_t workload) {
    ResultRecord r;
    r.workload_id = workload;
    r.kernel = "spmv";
    r.dtype = "f32";
    r.device_id = add_device("fp");
    r.config = nlohmann::json::object();
    r.answer = {{"kernel", "spmv"}};
    r.provenance = nlohmann::json::object();
    ResultRepository(*db_).upsert(r);
  }
};

TEST_F(UploadRepositoryTest, PutIsIdempotentAndContentRoundTripsByteForByte) {
  open();
  const int64_t workload = add_workload("sig");
  UploadRepository uploads(*db_);
  const std::string content = dbtest::all_byte_values();
  EXPECT_TRUE(uploads.put("up-1", workload, content, kRoomy).created);
  EXPECT_FALSE(uploads.put("up-1", workload, "other bytes", kRoomy).created);
  const auto got = uploads.get("up-1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->id, "up-1");
  EXPECT_EQ(got->workload_id, workload);
  EXPECT_EQ(got->content, content);
  EXPECT_EQ(got->bytes, static_cast<int64_t>(content.size()));
  EXPECT_FALSE(uploads.get("up-2").has_value());
  EXPECT_EQ(uploads.usage().uploads, 1);
  EXPECT_EQ(uploads.usage().bytes, static_cast<int64_t>(content.size()));
}

TEST_F(UploadRepositoryTest, RealGzipMatrixRoundTrips) {
  std::ifstream file(KTUNE_SOURCE_DIR "/examples/hammond.mtx.gz", std::ios::binary);
  ASSERT_TRUE(file) << "the example matrix is missing";
  const std::string content{std::istreambuf_iterator<char>(file), {}};
  open();
  UploadRepository uploads(*db_);
  uploads.put("mtx", add_workload("sig"), content, kRoomy);
  EXPECT_EQ(uploads.get("mtx")->content, content);
}

TEST_F(UploadRepositoryTest, UploadForMissingWorkloadIsRefused) {
  open();
  EXPECT_THROW(UploadRepository(*db_).put("orphan", 42, "x", kRoomy), SQLite::Exception);
  EXPECT_FALSE(UploadRepository(*db_).get("orphan").has_value());
}

TEST_F(UploadRepositoryTest, AFullStoreEvictsTheLeastRecentlyUsedUnpinnedUpload) {
  open();
  UploadRepository uploads(*db_);
  const UploadQuota three{3, 1 << 20};
  const int64_t a = add_workload("a"), b = add_workload("b"), c = add_workload("c"), d = add_workload("d");
  uploads.put("a", a, "aaaa", three);
  uploads.put("b", b, "bbbb", three);
  uploads.put("c", c, "cccc", three);
  // "a" is the oldest but has a stored answer; "b" was used just now: "c" goes.
  answer_for(a);
  ASSERT_TRUE(uploads.touch("b"));
  const StoredUpload stored = uploads.put("d", d, "dddd", three);
  EXPECT_TRUE(stored.created);
  EXPECT_EQ(stored.evicted, std::vector<std::string>{"c"});
  EXPECT_TRUE(uploads.get("a") && uploads.get("b") && uploads.get("d"));
  EXPECT_FALSE(uploads.get("c"));
  EXPECT_FALSE(uploads.touch("c"));
}

TEST_F(UploadRepositoryTest, ByteQuotaEvictsUntilTheNewOneFits) {
  open();
  UploadRepository uploads(*db_);
  const UploadQuota ten_bytes{100, 10};
  uploads.put("a", add_workload("a"), "aaaa", ten_bytes);
  uploads.put("b", add_workload("b"), "bbbb", ten_bytes);
  EXPECT_EQ(uploads.put("c", add_workload("c"), "cccccc", ten_bytes).evicted, std::vector<std::string>{"a"});
  EXPECT_EQ(uploads.usage().bytes, 10);
  EXPECT_THROW(uploads.put("huge", add_workload("h"), std::string(11, 'h'), ten_bytes), LimitError);
}

TEST_F(UploadRepositoryTest, UploadsThatAnswersOrUnfinishedJobsNeedAreNeverEvicted) {
  open();
  UploadRepository uploads(*db_);
  const UploadQuota two{2, 1 << 20};
  const int64_t a = add_workload("a");
  uploads.put("a", a, "aaaa", two);
  uploads.put("b", add_workload("b"), "bbbb", two);
  answer_for(a);
  JobRepository(*db_).create("j1", "k1", {{"workload", {{"upload", "b"}}}});
  EXPECT_TRUE(uploads.in_use("b"));
  EXPECT_FALSE(uploads.in_use("a"));
  try {
    uploads.put("c", add_workload("c"), "cccc", two);
    FAIL();
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("DELETE /v1/matrices"), std::string::npos) << e.what();
  }
  // Once the job is over, its upload may go.
  JobRepository(*db_).update_state("j1", JobState::Done);
  EXPECT_EQ(uploads.put("c", add_workload("c"), "cccc", two).evicted, std::vector<std::string>{"b"});
}

TEST_F(UploadRepositoryTest, RemoveDeletesOnlyTheUpload) {
  open();
  UploadRepository uploads(*db_);
  const int64_t a = add_workload("a");
  uploads.put("a", a, "aaaa", kRoomy);
  EXPECT_TRUE(uploads.remove("a"));
  EXPECT_FALSE(uploads.remove("a"));
  EXPECT_FALSE(uploads.get("a"));
  EXPECT_TRUE(WorkloadRepository(*db_).get(a).has_value());
}

}  // namespace
}  // namespace ktune
