#include "model/gpu_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "workload/input_error.h"

namespace ktune {
namespace {

TEST(GpuSpec, HopperMatchesTheH100Datasheet) {
  const GpuSpec h = spec_for_arch("sm_90");
  EXPECT_EQ(h.arch, "sm_90");
  EXPECT_EQ(h.sms, 132);
  EXPECT_EQ(h.max_threads_per_sm, 2048);
  EXPECT_EQ(h.max_warps_per_sm, 64);
  EXPECT_EQ(h.max_blocks_per_sm, 32);
  EXPECT_EQ(h.registers_per_sm, 65536);
  EXPECT_EQ(h.register_alloc_unit, 256);
  EXPECT_EQ(h.shared_per_sm, 228 * 1024);
  EXPECT_EQ(h.max_shared_per_block, 227 * 1024);
  EXPECT_EQ(h.l2_bytes, 50ll * 1024 * 1024);
  EXPECT_DOUBLE_EQ(h.dram_bandwidth_gbs, 3.0e3);
}

TEST(GpuSpec, EveryArchitectureIsSelfConsistent) {
  for (const char* arch : {"sm_80", "sm_90"}) {
    const GpuSpec s = spec_for_arch(arch);
    EXPECT_EQ(s.arch, arch);
    EXPECT_EQ(s.max_warps_per_sm * 32, s.max_threads_per_sm) << arch;
    EXPECT_LE(s.max_threads_per_block, s.max_threads_per_sm) << arch;
    EXPECT_EQ(s.registers_per_sm % (s.register_partitions * s.register_alloc_unit), 0) << arch;
    EXPECT_LE(s.max_shared_per_block + s.reserved_shared_per_block, s.shared_per_sm) << arch;
    EXPECT_GT(s.dram_bandwidth_gbs, 0) << arch;
    EXPECT_GT(s.dram_latency_ns, 0) << arch;
    EXPECT_GT(s.clock_ghz, 0) << arch;
    EXPECT_GT(s.launch_overhead_us, 0) << arch;
  }
  EXPECT_LT(spec_for_arch("sm_80").dram_bandwidth_gbs, spec_for_arch("sm_90").dram_bandwidth_gbs);
}

TEST(GpuSpec, EveryArchitectureHasTheEmulatorsFigures) {
  for (const char* arch : {"sm_80", "sm_90"}) {
    const GpuSpec s = spec_for_arch(arch);
    EXPECT_EQ(s.schedulers_per_sm, 4) << arch;
    EXPECT_EQ(s.issue_per_scheduler, 1) << arch;
    EXPECT_EQ(s.unified_l1_shared_bytes, std::string(arch) == "sm_90" ? 256 * 1024 : 192 * 1024) << arch;
    ASSERT_FALSE(s.shared_carveouts.empty()) << arch;
    EXPECT_EQ(s.shared_carveouts.front(), 0) << arch;
    EXPECT_EQ(s.shared_carveouts.back(), s.shared_per_sm) << arch;
    EXPECT_TRUE(std::is_sorted(s.shared_carveouts.begin(), s.shared_carveouts.end())) << arch;
    EXPECT_EQ(s.timing_source.rfind("table", 0), 0u) << arch;
    for (size_t r = 0; r < kResourceCount; ++r) {
      EXPECT_GT(s.timing[r].latency, 0) << arch << " " << resource_name(static_cast<Resource>(r));
      EXPECT_GT(s.timing[r].gap, 0) << arch << " " << resource_name(static_cast<Resource>(r));
    }
    // The memory hierarchy gets slower going out, and DRAM's gap is its bandwidth per SM:
    // one 32-byte sector per gap from every SM adds up to the sustained bandwidth.
    const auto& t = s.timing;
    EXPECT_LT(timing(t, Resource::L1).latency, timing(t, Resource::L2).latency) << arch;
    EXPECT_LT(timing(t, Resource::L2).latency, timing(t, Resource::Dram).latency) << arch;
    EXPECT_LT(timing(t, Resource::L2).gap, timing(t, Resource::Dram).gap) << arch;
    EXPECT_NEAR(timing(t, Resource::Fp32).latency, 4, 0.2) << arch;
  }
  const GpuSpec a100 = spec_for_arch("sm_80");
  EXPECT_NEAR(32.0 / timing(a100.timing, Resource::Dram).gap * a100.sms * a100.clock_ghz,
              a100.dram_bandwidth_gbs, 1e-6);
  // Hopper doubles FP32 and FP64 lanes per sub-partition over A100.
  EXPECT_LT(timing(spec_for_arch("sm_90").timing, Resource::Fp32).gap,
            timing(spec_for_arch("sm_80").timing, Resource::Fp32).gap);
}

// The built-in sm_90 table is the committed H200 calibration (issue 4): they must not drift.
TEST(GpuSpec, Sm90TableIsTheCommittedH200Calibration) {
  std::ifstream in(std::string(KTUNE_SOURCE_DIR) + "/bench/data/calibration_h200.json");
  ASSERT_TRUE(in) << "bench/data/calibration_h200.json";
  const nlohmann::json calibration = nlohmann::json::parse(in);
  const GpuSpec s = spec_for_arch("sm_90");
  const nlohmann::json& extras = calibration.at("extras");
  for (size_t r = 0; r < kResourceCount; ++r) {
    const std::string name = resource_name(static_cast<Resource>(r));
    // That calibration predates the L2 tag pipe's row: its gap is the gather benchmark's
    // (one request per sector), its latency L2's (calibration.cpp derives it the same way).
    const bool tag = static_cast<Resource>(r) == Resource::L2Tag;
    const nlohmann::json& measured = calibration.at("resources").at(tag ? "l2" : name);
    const double latency = measured.at("latency").get<double>();
    const double gap = tag ? extras.at("l2_gather_gap").get<double>() : measured.at("gap").get<double>();
    EXPECT_NEAR(s.timing[r].latency, latency, 0.01 * latency) << name;
    EXPECT_NEAR(s.timing[r].gap, gap, 0.01 * gap) << name;
  }
  const double dispatch = extras.at("block_dispatch_gap");
  EXPECT_NEAR(s.block_dispatch_cycles, dispatch, 0.01 * dispatch);
  const auto weight = [&](const char* gather, Resource level) {
    return line_weight_from_gaps(extras.at(gather).get<double>(), timing(s.timing, level).gap);
  };
  EXPECT_NEAR(s.line_weights.l1, weight("l1_gather_gap", Resource::L1), 0.02);
  EXPECT_NEAR(s.line_weights.dram, weight("dram_gather_gap", Resource::Dram), 0.02);
}

// Straight launches cost one overhead each; a looping program its graph's launch, turns and
// nodes; an architecture whose loops were never measured charges them as straight launches.
TEST(GpuSpec, LaunchTimeOfStraightAndLoopingPrograms) {
  const GpuSpec h = spec_for_arch("sm_90");
  EXPECT_GT(h.loop_iteration_us, 0);
  EXPECT_GT(h.graph_node_us, 0);
  EXPECT_DOUBLE_EQ(launch_time_us(h, 3, 0), 3 * h.launch_overhead_us);
  EXPECT_DOUBLE_EQ(launch_time_us(h, 9, 4), h.graph_launch_us + 4 * h.loop_iteration_us + 9 * h.graph_node_us);
  GpuSpec unmeasured = h;
  unmeasured.loop_iteration_us = 0;
  EXPECT_DOUBLE_EQ(launch_time_us(unmeasured, 9, 4), 9 * h.launch_overhead_us);
  // A loop's turn costs more than a node within it, and a node less than a launch on a stream.
  EXPECT_GT(h.loop_iteration_us, h.graph_node_us);
  EXPECT_LT(h.graph_node_us, h.launch_overhead_us);
}

TEST(GpuSpec, UnknownArchitectureIsAnInputErrorNamingTheKnownOnes) {
  try {
    spec_for_arch("sm_75");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sm_75"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("sm_90"), std::string::npos);
  }
}

}  // namespace
}  // namespace ktune
