#include "model/device_spec.h"

#include <gtest/gtest.h>

namespace ktune {
namespace {

DeviceInfo h200() {
  DeviceInfo d;
  d.present = true;
  d.name = "NVIDIA H200";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sms = 132;
  d.l2_bytes = 62914560;
  d.clock_khz = 1980000;
  d.memory_clock_khz = 3201000;
  d.memory_bus_width = 6016;
  d.max_shared_per_block_optin = 232448;
  return d;
}

TEST(DeviceSpec, TheDevicesOwnFiguresReplaceTheTables) {
  const GpuSpec table = spec_for_arch("sm_90");
  const GpuSpec s = spec_for_device(h200());
  EXPECT_EQ(s.arch, "sm_90");
  EXPECT_EQ(s.sms, 132);
  EXPECT_EQ(s.l2_bytes, 62914560);  // 60 MB, not the H100's 50
  EXPECT_NE(s.l2_bytes, table.l2_bytes);
  EXPECT_DOUBLE_EQ(s.clock_ghz, 1.98);
  // 2 x 3.201 GHz x 752 bytes = 4.81 TB/s peak; 90% of it sustained.
  EXPECT_NEAR(s.dram_bandwidth_gbs, 0.9 * 4814.3, 1.0);
  EXPECT_EQ(s.max_shared_per_block, 232448);
  // What the driver cannot tell stays the architecture's: limits and the emulator's table.
  EXPECT_EQ(s.max_warps_per_sm, table.max_warps_per_sm);
  EXPECT_DOUBLE_EQ(timing(s.timing, Resource::Dram).latency, timing(table.timing, Resource::Dram).latency);
}

TEST(DeviceSpec, WithoutADeviceItIsTheTableOfTheArchitecture) {
  DeviceInfo none;
  EXPECT_EQ(spec_for_device(none).arch, "sm_90");
  EXPECT_EQ(spec_for_device(none, "sm_80").sms, spec_for_arch("sm_80").sms);
  EXPECT_EQ(spec_for_device(none).l2_bytes, spec_for_arch("sm_90").l2_bytes);
}

TEST(DeviceSpec, AnArchitectureFlagWinsOverTheDevice) {
  EXPECT_EQ(spec_for_device(h200(), "sm_80").arch, "sm_80");
}

}  // namespace
}  // namespace ktune
