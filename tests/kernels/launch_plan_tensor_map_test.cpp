// The plan contract's sm_90 parts, family-neutral: a tensor-map argument's shape is checked
// before a worker sees it, a grid is whole clusters, and a counter-sized grid stays so.
#include <gtest/gtest.h>

#include "kernels/device_buffers.h"
#include "kernels/launch_plan.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

TensorMapArg map_over(const std::string& buffer) {
  TensorMapArg m;
  m.buffer = buffer;
  m.dtype = Dtype::BF16;
  m.dims = {256, 100};
  m.strides = {512};
  m.box = {64, 128};
  m.swizzle_bytes = 128;
  return m;
}

LaunchPlan plan_with(const TensorMapArg& m, Dim3 grid = {4, 1, 1}, Dim3 cluster = {2, 1, 1}) {
  LaunchPlan plan;
  plan.buffers = {output_buffer("x", 256 * 100, Dtype::BF16)};
  LaunchStep s;
  s.entry = "k";
  s.grid = grid;
  s.cluster = cluster;
  s.args = {KernelArg::of_tensor_map(m), KernelArg::of_scalar(int32_t{3})};
  plan.steps = {s};
  return plan;
}

TEST(LaunchPlanTensorMap, CheckPlanTakesAWellFormedMapAndWholeClusters) {
  EXPECT_NO_THROW(check_plan(plan_with(map_over("x"))));
  EXPECT_TRUE(plan_with(map_over("x")).steps[0].has_tensor_maps());
  EXPECT_TRUE(plan_with(map_over("x")).steps[0].clustered());
  EXPECT_THROW(check_plan(plan_with(map_over("missing"))), InputError);
  TensorMapArg wide = map_over("x");
  wide.box = {64, 512};  // a box side is at most 256
  EXPECT_THROW(check_plan(plan_with(wide)), InputError);
  TensorMapArg strided = map_over("x");
  strided.strides = {500};  // TMA's strides are multiples of 16 bytes
  EXPECT_THROW(check_plan(plan_with(strided)), InputError);
  TensorMapArg shallow = map_over("x");
  shallow.box = {64};
  EXPECT_THROW(check_plan(plan_with(shallow)), InputError);
  TensorMapArg swizzled = map_over("x");
  swizzled.swizzle_bytes = 96;
  EXPECT_THROW(check_plan(plan_with(swizzled)), InputError);
  EXPECT_THROW(check_plan(plan_with(map_over("x"), {5, 1, 1})), InputError);  // 2.5 clusters
}

TEST(LaunchPlanTensorMap, ACounterSizedGridRoundsUpToWholeClusters) {
  LaunchStep s;
  s.entry = "k";
  s.grid = {8, 1, 1};
  s.cluster = {2, 1, 1};
  s.grid_from = GridFromCounter{"count", 0, 1};
  const auto three = resolve_launch(s, [](const std::string&, uint32_t) { return 3; });
  ASSERT_TRUE(three);
  EXPECT_EQ(three->grid.x, 4u);
  const auto wave = resolve_launch(s, [](const std::string&, uint32_t) { return 0; }, CounterGrids::Wave, 5);
  ASSERT_TRUE(wave);
  EXPECT_EQ(wave->grid.x, 6u);
}

TEST(LaunchPlanTensorMap, ItsDescriptionTravelsAsJson) {
  const TensorMapArg m = map_over("x");
  EXPECT_EQ(tensor_map_from_json(nlohmann::json::parse(tensor_map_to_json(m).dump())), m);
  nlohmann::json bad = tensor_map_to_json(m);
  bad["dtype"] = "q8";
  EXPECT_THROW(tensor_map_from_json(bad), InputError);
}

}  // namespace
}  // namespace ktune
