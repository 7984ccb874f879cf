// Calibration in the daemon: which stored calibration a device predicts with, and the routes'
// answers on a daemon without a GPU (a worker that does not exist forces model-only mode, also
// on a machine with a GPU).
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "db/device_repository.h"
#include "ktuned_process.h"
#include "search/tuner.h"
#include "server/device_calibration.h"

namespace ktune {
namespace {

using nlohmann::json;

Calibration calibration_of(const std::string& fingerprint, double fp32_latency) {
  Calibration c;
  c.fingerprint = fingerprint;
  c.arch = "sm_90";
  c.clock_ghz = 1.98;
  c.schedulers_per_sm = 4;
  for (size_t i = 0; i < kResourceCount; ++i) c.timing[i] = {10, 1};
  timing(c.timing, Resource::Fp32).latency = fp32_latency;
  return c;
}

DeviceInfo h200(int driver) {
  DeviceInfo d;
  d.present = true;
  d.name = "NVIDIA H200";
  d.sms = 132;
  d.clock_khz = 1980000;
  d.driver_version = driver;
  return d;
}

TEST(StoredCalibration, OwnThenSameHardwareNeverOtherHardware) {
  const auto dir = testing::fresh_dir("stored-calibration");
  Database db((dir / "ktune.db").string());
  DeviceRepository devices(db);
  const int64_t old_driver = devices.upsert("fp-old", "NVIDIA H200", h200(12080).to_json());
  const int64_t new_driver = devices.upsert("fp-new", "NVIDIA H200", h200(13000).to_json());
  DeviceInfo h100 = h200(13000);
  h100.name = "NVIDIA H100 80GB HBM3";
  const int64_t other = devices.upsert("fp-h100", h100.name, h100.to_json());

  EXPECT_FALSE(stored_calibration(db, new_driver, h200(13000)).has_value());
  devices.set_calibration(old_driver, calibration_of("fp-old", 4.5).to_json());
  // A driver update made a new fingerprint, not a new GPU: the old calibration still holds.
  std::optional<Calibration> found = stored_calibration(db, new_driver, h200(13000));
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->fingerprint, "fp-old");
  // Its own calibration wins.
  devices.set_calibration(new_driver, calibration_of("fp-new", 4.1).to_json());
  found = stored_calibration(db, new_driver, h200(13000));
  ASSERT_TRUE(found.has_value());
  EXPECT_DOUBLE_EQ(timing(found->timing, Resource::Fp32).latency, 4.1);
  // Another GPU never borrows one.
  EXPECT_FALSE(stored_calibration(db, other, h100).has_value());
}

class CalibrateRouteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    daemon_ = new testing::KtunedProcess(testing::fresh_dir("calibrate-route"),
                                         {"--worker", "/nonexistent/ktune-measure-worker"});
  }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static testing::KtunedProcess* daemon_;
};
testing::KtunedProcess* CalibrateRouteTest::daemon_ = nullptr;

// What POST .../calibrate hands the running tuner: the current spec with the new table, so
// that tunes starting after it predict with it (no restart).
TEST(LiveCalibration, ACalibratedSpecReachesLaterTunesOfTheRunningTuner) {
  const GpuSpec table = spec_for_arch("sm_90");
  TunerContext ctx;
  ctx.gpu = table;
  Tuner tuner(ctx);
  const std::shared_ptr<const GpuSpec> running = tuner.gpu();
  tuner.set_gpu(calibrated_spec(*tuner.gpu(), calibration_of("fp", 7.5)));
  EXPECT_EQ(tuner.gpu()->timing_source, "calibrated fp");
  EXPECT_DOUBLE_EQ(timing(tuner.gpu()->timing, Resource::Fp32).latency, 7.5);
  EXPECT_EQ(tuner.gpu()->sms, table.sms) << "only the timing table changes";
  EXPECT_EQ(running->timing_source, table.timing_source) << "a tune in flight keeps its spec";
  EXPECT_DOUBLE_EQ(timing(running->timing, Resource::Fp32).latency, timing(table.timing, Resource::Fp32).latency);
}

TEST_F(CalibrateRouteTest, ModelOnlyDaemonRefusesWithAReason) {
  auto res = daemon_->client().Post("/v1/devices/this/calibrate", "", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 409) << res->body;
  const std::string error = json::parse(res->body).value("error", "");
  EXPECT_NE(error.find("no GPU"), std::string::npos) << error;
  // By id and by fingerprint too.
  const json devices = json::parse(daemon_->client().Get("/v1/devices")->body);
  EXPECT_EQ(devices["this"]["timing_source"], "table");
  const std::string id = std::to_string(devices["known"][0]["id"].get<int64_t>());
  EXPECT_EQ(daemon_->client().Post("/v1/devices/" + id + "/calibrate", "", "application/json")->status, 409);
}

TEST_F(CalibrateRouteTest, UnknownDeviceIsNotFound) {
  auto res = daemon_->client().Post("/v1/devices/987654/calibrate", "", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404) << res->body;
  EXPECT_EQ(daemon_->client().Get("/v1/devices/nosuchfingerprint")->status, 404);
}

TEST_F(CalibrateRouteTest, DeviceRouteShowsNoCalibrationYet) {
  auto res = daemon_->client().Get("/v1/devices/this");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json d = json::parse(res->body);
  EXPECT_TRUE(d["this"].get<bool>());
  EXPECT_TRUE(d["calibration"].is_null());
  EXPECT_EQ(d["timing_source"], "table");
  EXPECT_FALSE(d["fingerprint"].get<std::string>().empty());
}

}  // namespace
}  // namespace ktune
