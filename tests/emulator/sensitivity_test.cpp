#include "model/emulator/sensitivity.h"

#include <gtest/gtest.h>

#include "synthetic.h"

namespace ktune {
namespace {

using test::add_load;
using test::trace_op;

KernelEmulationInput one_block_per_sm(BlockTrace block, GpuSpec gpu) {
  KernelEmulationInput in;
  in.gpu = std::move(gpu);
  in.block_weights.assign(static_cast<size_t>(in.gpu.sms), 1.0);  // every SM active, one block each
  in.samples = {std::move(block)};
  in.threads_per_block = 32 * static_cast<int>(in.samples[0].warps.size());
  in.usage.registers = 32;
  return in;
}

TEST(Sensitivity, ALatencyBoundChainNamesTheLatencyWithTheFormulasElasticities) {
  // One warp, C = 4 interleaved chains of P = 10 FMAs, L = 100 > C x G = 8:
  // T = L P + (C - 1) G, linear in both, so a 10% step gives the elasticities exactly.
  const double L = 100, G = 2;
  const int C = 4, P = 10;
  GpuSpec gpu = test::simple_gpu();
  timing(gpu.timing, Resource::Fp32) = {L, G};
  BlockTrace b;
  b.warps.resize(1);
  for (int p = 0; p < P; ++p)
    for (int c = 0; c < C; ++c)
      b.warps[0].ops.push_back(trace_op(OpClass::Fp32, 1, p == 0 ? kNoDep : static_cast<uint32_t>((p - 1) * C + c)));
  const SensitivityReport r = analyse_sensitivity(prepare_kernel(one_block_per_sm(b, gpu)));
  const double T = L * P + (C - 1) * G;
  EXPECT_DOUBLE_EQ(r.base_cycles, T);
  const ResourceSensitivity& fp32 = r.resources[static_cast<size_t>(Resource::Fp32)];
  EXPECT_NEAR(fp32.latency, L * P / T, 1e-9);
  EXPECT_NEAR(fp32.gap, (C - 1) * G / T, 1e-9);
  EXPECT_EQ(r.bottleneck.resource, Resource::Fp32);
  EXPECT_EQ(r.bottleneck.kind, BoundKind::Latency);
  EXPECT_DOUBLE_EQ(r.resources[static_cast<size_t>(Resource::Dram)].gap, 0);  // unused
}

TEST(Sensitivity, AThroughputBoundStreamNamesTheGap) {
  // 16 warps x 100 independent streamed loads: DRAM admits one sector per gap, so
  // T = L + (C P - 1) G.
  GpuSpec gpu = test::simple_gpu();
  const double L = 400, G = 2;
  timing(gpu.timing, Resource::Dram) = {L, G};
  BlockTrace b;
  b.warps.resize(16);
  uint64_t sector = 0;
  for (WarpTrace& w : b.warps)
    for (int i = 0; i < 100; ++i) add_load(w, {sector++});
  const SensitivityReport r = analyse_sensitivity(prepare_kernel(one_block_per_sm(b, gpu)));
  const double T = L + (1600 - 1) * G;
  EXPECT_DOUBLE_EQ(r.base_cycles, T);
  EXPECT_EQ(r.bottleneck.resource, Resource::Dram);
  EXPECT_EQ(r.bottleneck.kind, BoundKind::Throughput);
  EXPECT_NEAR(r.bottleneck.elasticity, (1600 - 1) * G / T, 1e-9);
  EXPECT_NEAR(r.resources[static_cast<size_t>(Resource::Dram)].latency, L / T, 1e-9);
}

TEST(Sensitivity, RegionsShareTheBottleneckInProportionToTheirWork) {
  GpuSpec gpu = test::simple_gpu();
  BlockTrace b;
  b.warps.resize(8);
  uint64_t sector = 0;
  for (WarpTrace& w : b.warps) {
    for (int i = 0; i < 30; ++i) add_load(w, {sector++}, /*region=*/1);
    for (int i = 0; i < 90; ++i) add_load(w, {sector++}, /*region=*/2);
    w.ops.push_back(trace_op(OpClass::IntAlu, 1, kNoDep, /*region=*/3));
  }
  const SensitivityReport r = analyse_sensitivity(prepare_kernel(one_block_per_sm(b, gpu)));
  ASSERT_EQ(r.bottleneck.resource, Resource::Dram);
  ASSERT_EQ(r.regions.size(), 2u);  // region 3 never touches DRAM
  EXPECT_EQ(r.regions[0].region, 2u);
  EXPECT_EQ(r.regions[1].region, 1u);
  EXPECT_NEAR(r.regions[0].elasticity / r.regions[1].elasticity, 3, 0.1);
  EXPECT_NEAR(r.regions[0].elasticity + r.regions[1].elasticity, r.bottleneck.elasticity, 0.02);
}

TEST(Sensitivity, LowOccupancyIsLatencyBoundAndHighOccupancyThroughputBound) {
  GpuSpec gpu = test::simple_gpu();
  timing(gpu.timing, Resource::Dram) = {400, 20};
  BlockTrace b;
  b.warps.resize(4);
  uint64_t sector = 0;
  for (WarpTrace& w : b.warps)
    for (int i = 0; i < 50; ++i) add_load(w, {sector++}, 0, i == 0 ? kNoDep : static_cast<uint32_t>(i - 1));
  KernelEmulationInput in = one_block_per_sm(b, gpu);
  in.block_weights.assign(static_cast<size_t>(gpu.sms) * 16, 1.0);
  const SensitivityReport low = sensitivity_at_occupancy(in, 1);
  EXPECT_EQ(low.resident_blocks, 1);
  EXPECT_EQ(low.bottleneck.resource, Resource::Dram);
  EXPECT_EQ(low.bottleneck.kind, BoundKind::Latency);  // 4 warps x 20 cycles << 400
  const SensitivityReport high = sensitivity_at_occupancy(in, 16);
  EXPECT_EQ(high.bottleneck.resource, Resource::Dram);
  EXPECT_EQ(high.bottleneck.kind, BoundKind::Throughput);  // 64 warps x 20 > 400
}

TEST(Sensitivity, SerialisesTheBottleneckAndTheVector) {
  GpuSpec gpu = test::simple_gpu();
  BlockTrace b;
  b.warps.resize(2);
  for (WarpTrace& w : b.warps) add_load(w, {w.sectors.size() + 0u});
  const SensitivityReport r = analyse_sensitivity(prepare_kernel(one_block_per_sm(b, gpu)));
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j.at("bottleneck").at("resource"), resource_name(r.bottleneck.resource));
  EXPECT_EQ(j.at("bottleneck").at("kind"), bound_kind_name(r.bottleneck.kind));
  EXPECT_DOUBLE_EQ(j.at("sensitivity").at("dram").at("latency").get<double>(),
                   r.resources[static_cast<size_t>(Resource::Dram)].latency);
  EXPECT_EQ(j.at("sensitivity").size(), kResourceCount);
  EXPECT_DOUBLE_EQ(j.at("base_cycles").get<double>(), r.base_cycles);
  EXPECT_EQ(j.at("emulations").get<int>(), r.emulations);
}

}  // namespace
}  // namespace ktune
