// `ktune calibrate [--device ID]`: its arguments and its summary of the daemon's answer.
#include <gtest/gtest.h>

#include "clients/cli_args.h"
#include "clients/summary.h"

namespace ktune {
namespace {

TEST(CalibrateCli, DeviceDefaultsToTheDaemonsOwn) {
  const CliArgs a = parse_args({"calibrate"}, nullptr);
  EXPECT_EQ(a.command, Command::Calibrate);
  EXPECT_FALSE(a.device.has_value());
  const CliArgs b = parse_args({"calibrate", "--device", "3", "--json"}, nullptr);
  EXPECT_EQ(b.device, "3");
  EXPECT_TRUE(b.json);
  EXPECT_THROW(parse_args({"calibrate", "gpu0"}, nullptr), UsageError);
  EXPECT_THROW(parse_args({"calibrate", "--kernel", "spmv"}, nullptr), UsageError);
  EXPECT_NE(usage_text().find("calibrate"), std::string::npos);
}

TEST(CalibrateCli, SummaryListsEveryResource) {
  const nlohmann::json device = {
      {"id", 2},
      {"name", "NVIDIA H200"},
      {"calibration",
       {{"created_at", "2026-11-21T08:00:00Z"},
        {"clock_ghz", 1.98},
        {"resources", {{"fp32", {{"latency", 4.02}, {"gap", 1.0}}}, {"dram", {{"latency", 655.5}, {"gap", 1.87}}}}}}}};
  const std::string text = summarize_calibration(device);
  EXPECT_NE(text.find("NVIDIA H200"), std::string::npos) << text;
  EXPECT_NE(text.find("fp32      4.02"), std::string::npos) << text;
  EXPECT_NE(text.find("dram      655.50"), std::string::npos) << text;
  EXPECT_NE(text.find("1.870"), std::string::npos) << text;
  EXPECT_NE(summarize_calibration({{"id", 1}, {"name", "x"}, {"calibration", nullptr}}).find("not calibrated"),
            std::string::npos);
  EXPECT_NO_THROW(summarize_calibration(nlohmann::json::array()));
}

}  // namespace
}  // namespace ktune
