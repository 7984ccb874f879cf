// The suite driven by a fake device whose every resource has a known cost: the calibrator must
// recover those costs from the two-length timings, convert per-scheduler gaps, derive branch and
// issue as documented, and name the benchmark that fails.
#include <gtest/gtest.h>

#include <set>

#include "model/calibration/calibrator.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr double kClockGhz = 1.6;
constexpr int kSms = 7;  // odd on purpose: units per SM must not assume a real GPU

// Cycles per unit of every benchmark on the fake device.
const std::map<std::string, double>& truth() {
  static const std::map<std::string, double> t = {
      {"int_alu_latency", 4.5}, {"fp32_latency", 4},      {"fp64_latency", 8},        {"sfu_latency", 18},
      {"shuffle_latency", 24},  {"shared_latency", 30},   {"barrier_latency", 22},    {"branch_loop_latency", 17},
      {"atomic_latency", 640},  {"l1_latency", 36},       {"l2_latency", 270},        {"dram_latency", 620},
      {"int_alu_gap", 0.5},     {"fp32_gap", 0.26},       {"fp64_gap", 0.5},          {"sfu_gap", 2},
      {"shuffle_gap", 1.1},     {"issue_gap", 0.3},       {"shared_gap", 1.05},       {"barrier_gap", 0.9},
      {"branch_loop_gap", 0.7}, {"atomic_gap", 1.4},      {"atomic_same_address_gap", 0.05},
      {"l1_gap", 0.27},         {"l2_gap", 1.6},          {"dram_gap", 1.9},          {"block_dispatch_gap", 1.2},
      {"l1_gather_gap", 1.0},   {"l1_gather4_gap", 0.4},  {"l2_gather_gap", 2.5},     {"l2_gather4_gap", 1.7},
      {"l2_gather_via_l1_gap", 2.8}, {"dram_gather_gap", 6.5}, {"dram_gather4_gap", 2.1}};
  return t;
}

DeviceInfo fake_device() {
  DeviceInfo d;
  d.present = true;
  d.name = "Fake GPU";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sms = kSms;
  d.clock_khz = 1980000;
  return d;
}

CompiledKernel fake_compile(const CompileRequest& r) {
  CompiledKernel k;
  k.ok = true;
  k.cubin = "cubin";
  for (const std::string& e : r.entries) k.lowered_names[e] = e;
  return k;
}

// Times a plan as the fake device would run it: a fixed 6 us plus the benchmark's work.
Measurement fake_time(const LaunchPlan&, const Microbenchmark& b, int64_t n) {
  Measurement m;
  m.status = MeasureStatus::Ok;
  const double cycles = b.name == "clock" ? b.units(n) : b.units(n) * truth().at(b.name);
  m.median_us = 6 + cycles / (kClockGhz * 1e3);
  return m;
}

CalibrationTimer timer() {
  return [](const CompiledKernel&, const LaunchPlan& p, const Microbenchmark& b, int64_t n) { return fake_time(p, b, n); };
}

TEST(Calibrator, RecoversEveryResource) {
  const Calibration c = calibrate(fake_device(), "fp1", fake_compile, timer());
  EXPECT_NEAR(c.clock_ghz, kClockGhz, 1e-9);
  EXPECT_DOUBLE_EQ(c.reported_clock_ghz, 1.98);
  EXPECT_EQ(c.fingerprint, "fp1");
  EXPECT_EQ(c.arch, "sm_90");
  EXPECT_EQ(c.schedulers_per_sm, 4);
  const auto& t = truth();
  auto lat = [&](Resource r) { return timing(c.timing, r).latency; };
  auto gap = [&](Resource r) { return timing(c.timing, r).gap; };
  EXPECT_NEAR(lat(Resource::IntAlu), t.at("int_alu_latency"), 1e-6);
  EXPECT_NEAR(lat(Resource::Fp32), 4, 1e-6);
  EXPECT_NEAR(lat(Resource::Fp64), 8, 1e-6);
  EXPECT_NEAR(lat(Resource::Sfu), 18, 1e-6);
  EXPECT_NEAR(lat(Resource::Shared), 30, 1e-6);
  EXPECT_NEAR(lat(Resource::L1), 36, 1e-6);
  EXPECT_NEAR(lat(Resource::L2), 270, 1e-6);
  EXPECT_NEAR(lat(Resource::Dram), 620, 1e-6);
  EXPECT_NEAR(lat(Resource::Atomic), 640, 1e-6);
  EXPECT_NEAR(lat(Resource::Barrier), 22, 1e-6);
  EXPECT_NEAR(lat(Resource::Branch), 17 - 2 * 4.5, 1e-6);  // loop minus add and compare
  EXPECT_DOUBLE_EQ(lat(Resource::Issue), 1);
  // Per-scheduler pipes: the per-SM gap times four schedulers.
  EXPECT_NEAR(gap(Resource::IntAlu), 0.5 * 4, 1e-6);
  EXPECT_NEAR(gap(Resource::Fp32), 0.26 * 4, 1e-6);
  EXPECT_NEAR(gap(Resource::Fp64), 0.5 * 4, 1e-6);
  EXPECT_NEAR(gap(Resource::Sfu), 2 * 4, 1e-6);
  EXPECT_NEAR(gap(Resource::Branch), 0.7 * 4, 1e-6);
  EXPECT_NEAR(gap(Resource::Issue), 0.26 * 4, 1e-6);  // fastest stream: fp32 beat the mixed one
  // Per-SM resources as measured.
  EXPECT_NEAR(gap(Resource::Shared), 1.05, 1e-6);
  EXPECT_NEAR(gap(Resource::L1), 0.27, 1e-6);
  EXPECT_NEAR(gap(Resource::L2), 1.6, 1e-6);
  EXPECT_NEAR(gap(Resource::Dram), 1.9, 1e-6);
  EXPECT_NEAR(gap(Resource::Atomic), 1.4, 1e-6);
  EXPECT_NEAR(gap(Resource::Barrier), 0.9, 1e-6);
  EXPECT_NEAR(c.extras.at("shuffle_latency"), 24, 1e-6);
  EXPECT_NEAR(c.extras.at("atomic_same_address_gap"), 0.05, 1e-6);
  EXPECT_NEAR(c.extras.at("block_dispatch_gap"), 1.2, 1e-6);  // device-wide: not divided by SMs
  for (const char* gather : {"l1_gather_gap", "l1_gather4_gap", "l2_gather_gap", "l2_gather4_gap", "l2_gather_via_l1_gap",
                             "dram_gather_gap", "dram_gather4_gap"})
    EXPECT_NEAR(c.extras.at(gather), truth().at(gather), 1e-6) << gather;  // per SM, as measured
  for (size_t i = 0; i < kResourceCount; ++i) {
    EXPECT_FALSE(c.latency_method[i].empty()) << resource_name(static_cast<Resource>(i));
    EXPECT_FALSE(c.gap_method[i].empty()) << resource_name(static_cast<Resource>(i));
  }
  EXPECT_EQ(c.runs.size(), truth().size() + 1);  // and the clock
  EXPECT_NO_THROW(Calibration::from_json(c.to_json()));
}

TEST(Calibrator, TimesHotAndWithValidOptions) {
  const MeasureOptions o = calibration_measure_options();
  EXPECT_NO_THROW(o.validate());
  EXPECT_TRUE(o.hot);  // the working sets in cache are the point of the L1 and L2 benchmarks
}

TEST(Calibrator, IssueGapIsTheMixedStreamWhenItIsFastest) {
  std::map<std::string, double> per_unit = truth();
  per_unit["issue_gap"] = 0.25;
  Calibration c;
  c.schedulers_per_sm = 4;
  derive_resource_table(per_unit, c);
  EXPECT_NEAR(timing(c.timing, Resource::Issue).gap, 1.0, 1e-9);
  per_unit["branch_loop_latency"] = 5;  // faster than add + compare: clamped to a cycle
  derive_resource_table(per_unit, c);
  EXPECT_DOUBLE_EQ(timing(c.timing, Resource::Branch).latency, 1.0);
  per_unit.erase("l2_gap");
  EXPECT_THROW(derive_resource_table(per_unit, c), InputError);
}

TEST(Calibrator, PlansAreWellFormed) {
  const CompileRequest request = microbenchmark_compile_request("sm_90");
  const std::set<std::string> entries(request.entries.begin(), request.entries.end());
  std::set<std::string> names;
  for (const Microbenchmark& b : microbenchmarks(kSms)) {
    EXPECT_TRUE(names.insert(b.name).second) << "duplicate " << b.name;
    EXPECT_LT(b.lengths[0], b.lengths[1]) << b.name;
    EXPECT_LT(b.units(b.lengths[0]), b.units(b.lengths[1])) << b.name;
    for (int64_t n : b.lengths) {
      const LaunchPlan p = b.plan(n);
      std::set<std::string> buffers;
      for (const DeviceBuffer& d : p.buffers) buffers.insert(d.name);
      EXPECT_EQ(p.outputs.at(0).buffer, "out") << b.name;
      EXPECT_EQ(p.outputs.at(0).elements, 1u) << b.name;
      ASSERT_FALSE(p.steps.empty()) << b.name;
      EXPECT_EQ(p.steps.back().entry, b.entry) << b.name;
      for (const LaunchStep& s : p.steps) {
        EXPECT_TRUE(entries.count(s.entry)) << b.name << ": " << s.entry << " is not compiled";
        for (const KernelArg& a : s.args)
          if (!a.buffer.empty()) {
            EXPECT_TRUE(buffers.count(a.buffer)) << b.name << ": " << a.buffer;
          }
        // Gap benchmarks spread evenly: whole blocks per SM.
        if (b.name.find("_gap") != std::string::npos) {
          EXPECT_EQ(s.grid.x % kSms, 0u) << b.name;
        }
      }
    }
  }
  for (const auto& [name, cycles] : truth()) EXPECT_TRUE(names.count(name)) << name << " is not in the suite";
  EXPECT_THROW(microbenchmarks(0), InputError);
}

TEST(Calibrator, NamesTheBenchmarkThatFails) {
  const CalibrationTimer faulting = [](const CompiledKernel&, const LaunchPlan& p, const Microbenchmark& b, int64_t n) {
    Measurement m = fake_time(p, b, n);
    if (b.name == "dram_latency") {
      m.status = MeasureStatus::Fault;
      m.message = "the worker died";
    }
    return m;
  };
  try {
    calibrate(fake_device(), "fp", fake_compile, faulting);
    FAIL() << "a fault was ignored";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("dram_latency"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("worker died"), std::string::npos) << e.what();
  }
}

TEST(Calibrator, RefusesFlatTimingsAndBrokenCompilesAndNoDevice) {
  const CalibrationTimer flat = [](const CompiledKernel&, const LaunchPlan& p, const Microbenchmark& b, int64_t n) {
    Measurement m = fake_time(p, b, n);
    if (b.name == "fp32_gap") m.median_us = 50;  // the same at both lengths: optimised away
    return m;
  };
  try {
    calibrate(fake_device(), "fp", fake_compile, flat);
    FAIL() << "a flat timing was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("fp32_gap"), std::string::npos) << e.what();
    EXPECT_EQ(dynamic_cast<const InputError*>(&e), nullptr) << "not the caller's fault";
  }
  const CalibrationCompiler broken = [](const CompileRequest&) {
    CompiledKernel k;
    k.log = "error: something";
    return k;
  };
  EXPECT_THROW(calibrate(fake_device(), "fp", broken, timer()), std::runtime_error);
  DeviceInfo none;
  none.why_absent = "no driver";
  EXPECT_THROW(calibrate(none, "fp", fake_compile, timer()), InputError);
}

}  // namespace
}  // namespace ktune
