// The stored form of a calibration and how it replaces a GpuSpec's table.
#include <gtest/gtest.h>

#include "model/calibration/calibration.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

Calibration sample() {
  Calibration c;
  c.fingerprint = "f00d";
  c.device = "NVIDIA H200";
  c.arch = "sm_90";
  c.sms = 132;
  c.schedulers_per_sm = 4;
  c.clock_ghz = 1.98;
  c.reported_clock_ghz = 1.98;
  c.created_at = "2026-11-21T08:00:00Z";
  for (size_t i = 0; i < kResourceCount; ++i) {
    c.timing[i] = {10.0 + i, 0.5 + i};
    c.latency_method[i] = "measured: l" + std::to_string(i);
    c.gap_method[i] = "derived: g" + std::to_string(i);
  }
  c.extras["shuffle_latency"] = 23;
  c.runs.push_back({"fp32_latency", {100, 200}, {1.5, 2.5}, 4.2});
  return c;
}

// from_json refuses the record with an InputError that names `what`.
void expect_refused_naming(const nlohmann::json& j, const std::string& what) {
  try {
    Calibration::from_json(j);
    FAIL() << "a record wanting " << what << " was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(CalibrationJson, RoundTrips) {
  const Calibration c = sample();
  const nlohmann::json j = c.to_json();
  EXPECT_EQ(j["resources"]["dram"]["latency"], 10.0 + static_cast<double>(Resource::Dram));
  EXPECT_EQ(j["resources"]["fp32"]["gap"], 0.5 + static_cast<double>(Resource::Fp32));
  const Calibration back = Calibration::from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.fingerprint, "f00d");
  EXPECT_EQ(back.arch, "sm_90");
  EXPECT_EQ(back.sms, 132);
  EXPECT_EQ(back.schedulers_per_sm, 4);
  EXPECT_DOUBLE_EQ(back.clock_ghz, 1.98);
  for (size_t i = 0; i < kResourceCount; ++i) {
    EXPECT_DOUBLE_EQ(back.timing[i].latency, c.timing[i].latency) << i;
    EXPECT_DOUBLE_EQ(back.timing[i].gap, c.timing[i].gap) << i;
    EXPECT_EQ(back.latency_method[i], c.latency_method[i]);
    EXPECT_EQ(back.gap_method[i], c.gap_method[i]);
  }
  EXPECT_DOUBLE_EQ(back.extras.at("shuffle_latency"), 23);
  ASSERT_EQ(back.runs.size(), 1u);
  EXPECT_EQ(back.runs[0].name, "fp32_latency");
  EXPECT_DOUBLE_EQ(back.runs[0].us[1], 2.5);
  EXPECT_DOUBLE_EQ(back.runs[0].per_unit, 4.2);
}

TEST(CalibrationJson, NamesWhatIsMissingOrWrong) {
  nlohmann::json j = sample().to_json();
  j["resources"].erase("barrier");
  expect_refused_naming(j, "barrier");
  j = sample().to_json();
  j["resources"]["l2"]["gap"] = 0;
  EXPECT_THROW(Calibration::from_json(j), InputError);
  j = sample().to_json();
  j["resources"]["l2"]["latency"] = "fast";
  EXPECT_THROW(Calibration::from_json(j), InputError);
  j = sample().to_json();
  j.erase("clock_ghz");
  EXPECT_THROW(Calibration::from_json(j), InputError);
  EXPECT_THROW(Calibration::from_json(nlohmann::json::array()), InputError);
}

// Calibrations stored before L2's tag pipe had a row of its own measured it all the same, as
// the gather benchmark: the row is derived from that, and without it the record is refused.
TEST(CalibrationJson, DerivesTheL2TagRowOfAnOlderRecordFromItsGatherBenchmark) {
  nlohmann::json j = sample().to_json();
  j["resources"].erase("l2_tag");
  j["extras"]["l2_gather_gap"] = 1.63;
  const Calibration back = Calibration::from_json(j);
  EXPECT_DOUBLE_EQ(timing(back.timing, Resource::L2Tag).gap, 1.63);
  EXPECT_DOUBLE_EQ(timing(back.timing, Resource::L2Tag).latency, timing(back.timing, Resource::L2).latency);
  j["extras"].erase("l2_gather_gap");
  expect_refused_naming(j, "l2_tag");
}

TEST(ApplyCalibration, ReplacesTableSourceAndClock) {
  GpuSpec spec = spec_for_arch("sm_90");
  const int sms = spec.sms;
  Calibration c = sample();
  c.clock_ghz = 1.755;
  apply_calibration(spec, c);
  EXPECT_EQ(spec.timing_source, "calibrated f00d");
  EXPECT_DOUBLE_EQ(spec.clock_ghz, 1.755);
  EXPECT_DOUBLE_EQ(timing(spec.timing, Resource::Dram).latency, 10.0 + static_cast<double>(Resource::Dram));
  EXPECT_DOUBLE_EQ(timing(spec.timing, Resource::Issue).gap, 0.5 + static_cast<double>(Resource::Issue));
  EXPECT_EQ(spec.sms, sms);  // limits are not the calibration's business
  EXPECT_DOUBLE_EQ(spec.block_dispatch_cycles, spec_for_arch("sm_90").block_dispatch_cycles);  // none measured
  c.extras["block_dispatch_gap"] = 0.75;
  apply_calibration(spec, c);
  EXPECT_DOUBLE_EQ(spec.block_dispatch_cycles, 0.75);
  // Line weights from the gathers, each against its level's streamed gap; a level that
  // gathers no slower than it streams gets 0; one not measured keeps the table's weight.
  timing(c.timing, Resource::L1) = {30, 0.5};
  c.extras["l1_gather_gap"] = 0.65;  // 1 + 3w/4 = 1.3 gaps: w = 0.4
  apply_calibration(spec, c);
  EXPECT_DOUBLE_EQ(spec.line_weights.l1, 0.4);
  c.extras["l1_gather_gap"] = 0.4;   // faster than its stream: no line cost
  const double dram_before = spec.line_weights.dram;
  apply_calibration(spec, c);
  EXPECT_DOUBLE_EQ(spec.line_weights.l1, 0.0);
  EXPECT_DOUBLE_EQ(spec.line_weights.dram, dram_before);
}

TEST(ApplyCalibration, RefusesAnotherArchitecture) {
  GpuSpec spec = spec_for_arch("sm_80");
  const ResourceTable before = spec.timing;
  EXPECT_THROW(apply_calibration(spec, sample()), InputError);
  EXPECT_EQ(spec.timing_source, "table");
  EXPECT_DOUBLE_EQ(timing(spec.timing, Resource::Fp32).latency, timing(before, Resource::Fp32).latency);
}

}  // namespace
}  // namespace ktune
