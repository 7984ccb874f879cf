#include <gtest/gtest.h>

#include "gpu/device_info.h"
#include "tests/device/device_fixture.h"

namespace ktune {
namespace {

TEST(DeviceProbe, ReportsASaneDevice) {
  const DeviceInfo d = probe_device();
  if (!d.present) GTEST_SKIP() << d.why_absent;
  EXPECT_FALSE(d.name.empty());
  EXPECT_GE(d.cc_major, 7);
  EXPECT_GT(d.sms, 0);
  EXPECT_GT(d.l2_bytes, 0);
  EXPECT_GT(d.memory_bytes, int64_t{1} << 30);
  EXPECT_GE(d.driver_version, 12000);
  EXPECT_GE(d.max_shared_per_block_optin, 48 * 1024);
  EXPECT_GT(d.clock_khz, 0);
  EXPECT_GT(d.memory_clock_khz, 0);
  EXPECT_GT(d.memory_bus_width, 0);
  EXPECT_EQ(d.arch(), "sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor));
}

TEST(DeviceProbe, HopperFiguresMatchTheDatasheet) {
  const DeviceInfo d = probe_device();
  if (!d.present) GTEST_SKIP() << d.why_absent;
  if (d.name.find("H100") == std::string::npos && d.name.find("H200") == std::string::npos) {
    GTEST_SKIP() << "not an H100/H200: " << d.name;
  }
  EXPECT_EQ(d.arch(), "sm_90");
  EXPECT_GE(d.sms, 114);  // PCIe H100 114, SXM 132
  EXPECT_LE(d.sms, 132);
  EXPECT_GE(d.l2_bytes, int64_t{50} << 20);
  EXPECT_GE(d.memory_bytes, int64_t{75} << 30);
  EXPECT_EQ(d.max_shared_per_block_optin, 227 * 1024);
  EXPECT_GE(d.memory_bus_width, 5120);
}

TEST(DeviceProbe, WorkerSeesTheSameDevice) {
  const DeviceInfo local = probe_device();
  if (!local.present) GTEST_SKIP() << local.why_absent;
  const DeviceInfo remote = shared_measurer().device();
  EXPECT_TRUE(remote.present);
  EXPECT_EQ(remote.to_json(), local.to_json());
  EXPECT_EQ(device_fingerprint(remote, "13.0", "t"), device_fingerprint(local, "13.0", "t"));
}

}  // namespace
}  // namespace ktune
