// Answers stored before families versioned their templates move to today's device row with
// their family's version when this daemon would have given their device row its fingerprint.
#include "server/legacy_answers.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "db/device_repository.h"
#include "db/result_repository.h"
#include "db/workload_repository.h"
#include "kernels/kernel_family.h"

namespace ktune {
namespace {

class LegacyAnswers : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "ktune_legacy_" + std::to_string(::getpid()) + ".db";
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path_ + suffix).c_str());
    db_ = std::make_unique<Database>(path_);
  }
  void TearDown() override {
    db_.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path_ + suffix).c_str());
  }
  int64_t answer_on(int64_t device_id, const std::string& signature) {
    WorkloadRecord w;
    w.signature = signature;
    w.kind = "sparse";
    w.vector = {1.0};
    ResultRecord r;
    r.workload_id = WorkloadRepository(*db_).upsert(w);
    r.kernel = "spmv";
    r.dtype = "f32";
    r.device_id = device_id;
    r.answer = {{"config_key", signature}};
    return ResultRepository(*db_).upsert(r);
  }
  std::string path_;
  std::unique_ptr<Database> db_;
};

TEST_F(LegacyAnswers, MoveToTodaysDeviceWithTheirFamilysVersionOnce) {
  const DeviceInfo device;  // a model-only daemon's
  const int64_t legacy = DeviceRepository(*db_).upsert(legacy_fingerprint(device, "13.0"), "old", {});
  const int64_t elsewhere = DeviceRepository(*db_).upsert("another GPU or other templates", "other", {});
  const int64_t today = DeviceRepository(*db_).upsert("today", "new", {});
  answer_on(legacy, "a");
  answer_on(elsewhere, "b");
  EXPECT_EQ(adopt_legacy_answers(*db_, device, "13.0", today), 1);
  const auto moved = ResultRepository(*db_).get_exact("a", "spmv", "{}", "f32", "today");
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(moved->kernel_version, family_version(*find_family("spmv")));
  EXPECT_TRUE(ResultRepository(*db_).get_exact("b", "spmv", "{}", "f32", "another GPU or other templates"));
  EXPECT_EQ(adopt_legacy_answers(*db_, device, "13.0", today), 0) << "nothing left to move";
  EXPECT_EQ(adopt_legacy_answers(*db_, device, "12.9", today), 0) << "another NVRTC: another fingerprint";
}

}  // namespace
}  // namespace ktune
