#include "db/device_repository.h"

#include <gtest/gtest.h>

#include "db_test_support.h"

namespace ktune {
namespace {

using DeviceRepositoryTest = dbtest::DbTest;

TEST_F(DeviceRepositoryTest, UpsertByFingerprintKeepsIdAndCalibration) {
  open();
  DeviceRepository devices(*db_);
  const nlohmann::json details = {{"sm_count", 132}, {"l2_bytes", 52428800}};
  const int64_t id = devices.upsert("fp-h100", "H100", details);
  ASSERT_TRUE(devices.set_calibration(id, {{"dram_gbps", 3000.5}}));

  const nlohmann::json new_details = {{"sm_count", 132}, {"driver", "580"}};
  EXPECT_EQ(devices.upsert("fp-h100", "NVIDIA H100 80GB", new_details), id);
  const auto device = devices.get(id);
  ASSERT_TRUE(device.has_value());
  EXPECT_EQ(device->fingerprint, "fp-h100");
  EXPECT_EQ(device->name, "NVIDIA H100 80GB");
  EXPECT_EQ(device->details, new_details);
  ASSERT_TRUE(device->calibration.has_value());
  EXPECT_EQ((*device->calibration)["dram_gbps"], 3000.5);
}

TEST_F(DeviceRepositoryTest, CalibrationIsAbsentUntilSet) {
  open();
  DeviceRepository devices(*db_);
  const int64_t id = devices.upsert("fp", "GPU", nlohmann::json::object());
  EXPECT_FALSE(devices.get_calibration(id).has_value());
  const nlohmann::json calibration = {{"launch_us", 2.5}, {"curve", {1.0, 2.0, 4.0}}};
  EXPECT_TRUE(devices.set_calibration(id, calibration));
  EXPECT_EQ(devices.get_calibration(id), calibration);
  EXPECT_FALSE(devices.set_calibration(id + 100, calibration));
  EXPECT_FALSE(devices.get_calibration(id + 100).has_value());
}

TEST_F(DeviceRepositoryTest, ListReturnsEveryDeviceOnce) {
  open();
  DeviceRepository devices(*db_);
  const int64_t a = devices.upsert("fp-a", "A", nlohmann::json::object());
  const int64_t b = devices.upsert("fp-b", "B", nlohmann::json::object());
  devices.upsert("fp-a", "A again", nlohmann::json::object());
  const auto all = devices.list();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, a);
  EXPECT_EQ(all[0].name, "A again");
  EXPECT_EQ(all[1].id, b);
  EXPECT_EQ(all[1].fingerprint, "fp-b");
}

}  // namespace
}  // namespace ktune
