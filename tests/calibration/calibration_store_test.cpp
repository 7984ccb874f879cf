// A calibration stored with its device and read back whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "db/database.h"
#include "db/device_repository.h"
#include "model/calibration/calibration.h"

namespace ktune {
namespace {

TEST(CalibrationStore, RoundTripsThroughTheDeviceRow) {
  const std::string path = ::testing::TempDir() + "ktune_calibration_store_" + std::to_string(::getpid()) + ".db";
  {
    Database db(path);
    DeviceRepository devices(db);
    const int64_t id = devices.upsert("fp-h200", "NVIDIA H200", {{"sms", 132}});
    EXPECT_FALSE(devices.get_calibration(id).has_value());
    Calibration c;
    c.fingerprint = "fp-h200";
    c.arch = "sm_90";
    c.clock_ghz = 1.98;
    c.schedulers_per_sm = 4;
    for (size_t i = 0; i < kResourceCount; ++i) c.timing[i] = {3.0 * (i + 1), 0.25 * (i + 1)};
    ASSERT_TRUE(devices.set_calibration(id, c.to_json()));
    // A restart refreshes the device's details; its calibration stays.
    EXPECT_EQ(devices.upsert("fp-h200", "NVIDIA H200", {{"sms", 132}}), id);
    const std::optional<nlohmann::json> stored = devices.get_calibration(id);
    ASSERT_TRUE(stored.has_value());
    const Calibration back = Calibration::from_json(*stored);
    for (size_t i = 0; i < kResourceCount; ++i) {
      EXPECT_DOUBLE_EQ(back.timing[i].latency, 3.0 * (i + 1));
      EXPECT_DOUBLE_EQ(back.timing[i].gap, 0.25 * (i + 1));
    }
    EXPECT_FALSE(devices.set_calibration(id + 100, c.to_json()));
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
}

}  // namespace
}  // namespace ktune
