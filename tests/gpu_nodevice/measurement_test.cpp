#include "gpu/measurement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "workload/input_error.h"

namespace ktune {
namespace {

std::string rejection(const MeasureOptions& o) {
  try {
    o.validate();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Measurement, DefaultOptionsFollowTheDesign) {
  const MeasureOptions o;
  EXPECT_FALSE(o.hot);  // L2 flushed unless asked
  EXPECT_DOUBLE_EQ(o.target_rel_halfwidth, 0.02);  // "under 2%"
  EXPECT_EQ(rejection(o), "");
}

TEST(Measurement, OptionsOutOfRangeNameTheOption) {
  MeasureOptions o;
  o.min_runs = 0;
  EXPECT_NE(rejection(o).find("min_runs"), std::string::npos);
  o = {};
  o.max_runs = 5;  // below min_runs = 10
  EXPECT_NE(rejection(o).find("max_runs"), std::string::npos);
  o = {};
  o.max_seconds = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(rejection(o).find("max_seconds"), std::string::npos);
  o = {};
  o.target_rel_halfwidth = 0;
  EXPECT_NE(rejection(o).find("target_rel_halfwidth"), std::string::npos);
  o = {};
  o.kernel_timeout_s = -1;
  EXPECT_NE(rejection(o).find("kernel_timeout_s"), std::string::npos);
  o = {};
  o.warmup = -1;
  EXPECT_NE(rejection(o).find("warmup"), std::string::npos);
}

TEST(Measurement, OptionsJsonRoundTrip) {
  MeasureOptions o;
  o.hot = true;
  o.warmup = 5;
  o.min_runs = 3;
  o.max_runs = 9;
  o.max_seconds = 0.25;
  o.target_rel_halfwidth = 0.05;
  o.kernel_timeout_s = 1.5;
  const MeasureOptions back = MeasureOptions::from_json(o.to_json());
  EXPECT_EQ(back.to_json(), o.to_json());
  EXPECT_TRUE(back.hot);
  EXPECT_EQ(back.max_runs, 9);
}

TEST(Measurement, StatusNamesRoundTrip) {
  for (MeasureStatus s : {MeasureStatus::Ok, MeasureStatus::VerifyFailed, MeasureStatus::Fault, MeasureStatus::Timeout,
                          MeasureStatus::LaunchError}) {
    EXPECT_EQ(measure_status_from_string(to_string(s)), s);
  }
  EXPECT_STREQ(to_string(MeasureStatus::VerifyFailed), "verify_failed");
  EXPECT_THROW(measure_status_from_string("fine"), InputError);
}

TEST(Measurement, JsonRoundTripIncludingInfiniteError) {
  const Measurement m{MeasureStatus::VerifyFailed, 1.25, 0.5, 12, std::numeric_limits<double>::infinity(), "NaN at 3"};
  const nlohmann::json j = nlohmann::json::parse(m.to_json().dump());
  EXPECT_EQ(j.at("status"), "verify_failed");
  const Measurement back = Measurement::from_json(j);
  EXPECT_EQ(back.status, MeasureStatus::VerifyFailed);
  EXPECT_DOUBLE_EQ(back.median_us, 1.25);
  EXPECT_DOUBLE_EQ(back.iqr_us, 0.5);
  EXPECT_EQ(back.count, 12);
  EXPECT_TRUE(std::isinf(back.max_rel_error));
  EXPECT_EQ(back.message, "NaN at 3");
}

}  // namespace
}  // namespace ktune
