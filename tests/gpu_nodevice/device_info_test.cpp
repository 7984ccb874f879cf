#include "gpu/device_info.h"

#include <gtest/gtest.h>

#include "gpu/cuda_driver.h"

namespace ktune {
namespace {

DeviceInfo h100() {
  DeviceInfo d;
  d.present = true;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sms = 132;
  d.l2_bytes = 50 << 20;
  d.memory_bytes = int64_t{80} << 30;
  d.driver_version = 13000;
  d.max_shared_per_block_optin = 232448;
  d.clock_khz = 1980000;
  d.memory_clock_khz = 2619000;
  d.memory_bus_width = 5120;
  return d;
}

TEST(DeviceInfo, ArchNamesTheComputeCapability) {
  DeviceInfo d = h100();
  EXPECT_EQ(d.arch(), "sm_90");
  d.cc_major = 8;
  d.cc_minor = 6;
  EXPECT_EQ(d.arch(), "sm_86");
  EXPECT_EQ(DeviceInfo{}.arch(), "sm_90");  // the model-only target
}

TEST(DeviceInfo, JsonRoundTrip) {
  const DeviceInfo d = h100();
  const DeviceInfo back = DeviceInfo::from_json(nlohmann::json::parse(d.to_json().dump()));
  EXPECT_EQ(back.to_json(), d.to_json());
  EXPECT_EQ(d.to_json().at("arch"), "sm_90");
  EXPECT_FALSE(d.to_json().contains("why_absent"));
  DeviceInfo absent;
  absent.why_absent = "no CUDA driver";
  EXPECT_EQ(DeviceInfo::from_json(absent.to_json()).why_absent, "no CUDA driver");
}

TEST(DeviceInfo, FingerprintChangesWithEveryKeyField) {
  const std::string base = device_fingerprint(h100(), "13.0", "t1");
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(base, device_fingerprint(h100(), "13.0", "t1"));
  EXPECT_NE(base, device_fingerprint(h100(), "13.1", "t1"));
  EXPECT_NE(base, device_fingerprint(h100(), "13.0", "t2"));
  auto changed = [&](auto edit) {
    DeviceInfo d = h100();
    edit(d);
    return device_fingerprint(d, "13.0", "t1");
  };
  EXPECT_NE(base, changed([](DeviceInfo& d) { d.name = "NVIDIA H200"; }));
  EXPECT_NE(base, changed([](DeviceInfo& d) { d.cc_minor = 1; }));
  EXPECT_NE(base, changed([](DeviceInfo& d) { d.sms = 114; }));
  EXPECT_NE(base, changed([](DeviceInfo& d) { d.l2_bytes = 60 << 20; }));
  EXPECT_NE(base, changed([](DeviceInfo& d) { d.driver_version = 13010; }));
  // Clocks vary with power state; they must not invalidate stored results.
  EXPECT_EQ(base, changed([](DeviceInfo& d) { d.clock_khz = 1755000; }));
}

TEST(DeviceInfo, ModelOnlyFingerprintNamesTheTarget) {
  const std::string f = device_fingerprint(DeviceInfo{}, "13.0", "t1");
  EXPECT_EQ(f.rfind("model-only sm_90 ", 0), 0u) << f;
  EXPECT_EQ(f.size(), std::string("model-only sm_90 ").size() + 16);
  EXPECT_NE(f, device_fingerprint(DeviceInfo{}, "13.0", "t2"));
  EXPECT_NE(f, device_fingerprint(h100(), "13.0", "t1"));
}

TEST(DeviceInfo, ProbeWithoutDriverReportsAbsence) {
  std::string why;
  if (CudaDriver::load(&why)) GTEST_SKIP() << "a CUDA driver is present";
  const DeviceInfo d = probe_device();
  EXPECT_FALSE(d.present);
  EXPECT_EQ(d.why_absent, why);
  EXPECT_FALSE(probe_device(3).present);
}

}  // namespace
}  // namespace ktune
