// The calibration suite on the real GPU: every resource measured, in the ranges published
// microbenchmarks of Ampere and Hopper give (model/gpu_spec.cpp cites them), in the order the
// memory hierarchy implies, and the same again on a second run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "model/calibration/calibrator.h"
#include "tests/device/device_fixture.h"

namespace ktune {
namespace {

class CalibrationDeviceTest : public DeviceTest {
 protected:
  Calibration run() {
    const auto compile = [](const CompileRequest& r) { return NvrtcCompiler{}.compile(r); };
    const auto time = [this](const CompiledKernel& k, const LaunchPlan& plan, const Microbenchmark&, int64_t) {
      return measurer().measure(k, plan, Reference{{"out", {0.0}}}, calibration_measure_options());
    };
    return calibrate(measurer().device(), "device-test", compile, time);
  }
};

void print_table(const Calibration& c) {
  std::printf("calibration of %s at %.3f GHz (reported %.3f)\n", c.device.c_str(), c.clock_ghz, c.reported_clock_ghz);
  for (size_t i = 0; i < kResourceCount; ++i)
    std::printf("  %-8s latency %9.2f  gap %7.3f\n", resource_name(static_cast<Resource>(i)), c.timing[i].latency,
                c.timing[i].gap);
  for (const auto& [name, value] : c.extras) std::printf("  %-24s %9.3f\n", name.c_str(), value);
}

TEST_F(CalibrationDeviceTest, PlausibleOrderedAndRepeatable) {
  const Calibration first = run();
  print_table(first);
  // KTUNE_CALIBRATION_JSON names a file to keep the result in (scripts/gpu-check sets it).
  if (const char* path = std::getenv("KTUNE_CALIBRATION_JSON")) std::ofstream(path) << first.to_json().dump(2) << "\n";

  EXPECT_GT(first.clock_ghz, 0.5);
  EXPECT_NEAR(first.clock_ghz, first.reported_clock_ghz, 0.3 * first.reported_clock_ghz);
  auto lat = [&](Resource r) { return timing(first.timing, r).latency; };
  auto gap = [&](Resource r) { return timing(first.timing, r).gap; };
  const struct {
    Resource r;
    double lo, hi;
  } latencies[] = {{Resource::IntAlu, 2, 10},   {Resource::Fp32, 3, 8},      {Resource::Fp64, 3, 20},
                   {Resource::Sfu, 6, 60},      {Resource::Shared, 10, 60},  {Resource::L1, 15, 80},
                   {Resource::L2, 100, 700},    {Resource::Dram, 300, 1200}, {Resource::Atomic, 100, 2500},
                   {Resource::Barrier, 2, 200}, {Resource::Branch, 1, 60}};
  for (const auto& l : latencies) {
    EXPECT_GE(lat(l.r), l.lo) << resource_name(l.r);
    EXPECT_LE(lat(l.r), l.hi) << resource_name(l.r);
  }
  EXPECT_LT(lat(Resource::L1), lat(Resource::L2));
  EXPECT_LT(lat(Resource::L2), lat(Resource::Dram));
  EXPECT_LT(gap(Resource::L1), gap(Resource::L2));
  // Per-scheduler FP32: 32 lanes over 16 (Ampere) or 32 (Hopper) per sub-partition.
  EXPECT_GE(gap(Resource::Fp32), 0.8);
  EXPECT_LE(gap(Resource::Fp32), 2.5);
  EXPECT_LE(gap(Resource::Issue), gap(Resource::Fp32) + 1e-9);
  // The DRAM gap implies a bandwidth between a slow PCIe card's and an H200's peak.
  const double dram_gbs = 32.0 * first.sms * first.clock_ghz / gap(Resource::Dram);
  std::printf("  implied DRAM bandwidth %.0f GB/s\n", dram_gbs);
  EXPECT_GT(dram_gbs, 300);
  EXPECT_LT(dram_gbs, 5200);
  for (size_t i = 0; i < kResourceCount; ++i) {
    EXPECT_TRUE(std::isfinite(first.timing[i].latency) && first.timing[i].latency > 0);
    EXPECT_TRUE(std::isfinite(first.timing[i].gap) && first.timing[i].gap > 0);
  }

  // Within 10%, or 0.05 cycles for gaps of a fraction of a cycle (L1's, 0.22-0.26 cycles a
  // sector in two runs of one H100: a few hundredths of a cycle is the benchmark's noise there).
  const Calibration second = run();
  for (size_t i = 0; i < kResourceCount; ++i) {
    const char* name = resource_name(static_cast<Resource>(i));
    EXPECT_NEAR(second.timing[i].latency, first.timing[i].latency, 0.1 * first.timing[i].latency) << name;
    EXPECT_NEAR(second.timing[i].gap, first.timing[i].gap, std::max(0.1 * first.timing[i].gap, 0.05)) << name;
  }
}

}  // namespace
}  // namespace ktune
