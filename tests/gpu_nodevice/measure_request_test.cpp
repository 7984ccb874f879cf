#include "gpu/measure_request.h"

#include <gtest/gtest.h>

#include <limits>

namespace ktune {
namespace {

MeasureRequest sample_request() {
  MeasureRequest r;
  r.family = "spmm";
  r.problem = Problem::of(Dtype::F32, {{"k", 128}});
  r.buffers = {{"values", 4096, "aa-4096"}, {"y", 800, ""}, {"count", 4, ""}};
  LaunchStep step;
  step.entry = "_Z4spmvPKfPf";
  step.grid = {1000, 2, 3};
  step.block = {256, 1, 1};
  step.shared_bytes = 65536;
  step.args = {KernelArg::of_buffer("values"), KernelArg::of_scalar(int32_t{-7}),
               KernelArg::of_scalar(int64_t{1} << 40), KernelArg::of_scalar(0.1f),
               KernelArg::of_scalar(std::numeric_limits<double>::min()), KernelArg::of_buffer("y")};
  step.grid_from = GridFromCounter{"count", 0, 128};
  r.steps = {step};
  r.program = {PlanOp::fill("y", 7), PlanOp::loop({PlanOp::run(0), PlanOp::copy("y", "y")}, "count", 50)};
  r.outputs = {{"y", 200, Dtype::F32, "ref-1600", 36, {{0, 16}, {100, 120}}}};
  r.check_keys = {{"row_lengths", "len-800"}};
  r.options.hot = true;
  r.options.max_runs = 17;
  r.fresh = true;
  return r;
}

TEST(MeasureRequest, JsonRoundTripKeepsEveryField) {
  const MeasureRequest in = sample_request();
  const MeasureRequest out = MeasureRequest::from_json(nlohmann::json::parse(in.to_json().dump()));
  EXPECT_EQ(out.family, "spmm");
  EXPECT_EQ(out.problem.params, in.problem.params);
  EXPECT_EQ(out.problem.precision, in.problem.precision);
  ASSERT_EQ(out.buffers.size(), 3u);
  EXPECT_EQ(out.buffers[0].name, "values");
  EXPECT_EQ(out.buffers[0].size, 4096u);
  EXPECT_EQ(out.buffers[0].content_key, "aa-4096");
  EXPECT_EQ(out.buffers[1].content_key, "");
  ASSERT_EQ(out.steps.size(), 1u);
  const LaunchStep& s = out.steps[0];
  EXPECT_EQ(s.entry, "_Z4spmvPKfPf");
  EXPECT_EQ(s.grid.x, 1000u);
  EXPECT_EQ(s.grid.z, 3u);
  EXPECT_EQ(s.block.x, 256u);
  EXPECT_EQ(s.shared_bytes, 65536u);
  ASSERT_EQ(s.args.size(), 6u);
  EXPECT_EQ(s.args[0].buffer, "values");
  EXPECT_EQ(s.args[5].buffer, "y");
  EXPECT_EQ(s.args[1].scalar, in.steps[0].args[1].scalar);  // the variant compares type and value
  EXPECT_EQ(s.args[2].scalar, in.steps[0].args[2].scalar);
  EXPECT_EQ(s.args[3].scalar, in.steps[0].args[3].scalar);
  EXPECT_EQ(s.args[4].scalar, in.steps[0].args[4].scalar);
  ASSERT_TRUE(s.grid_from);
  EXPECT_EQ(s.grid_from->buffer, "count");
  EXPECT_EQ(s.grid_from->items_per_block, 128u);
  EXPECT_EQ(program_to_json(out.program), program_to_json(in.program));
  ASSERT_EQ(out.outputs.size(), 1u);
  EXPECT_EQ(out.outputs[0].buffer, "y");
  EXPECT_EQ(out.outputs[0].elements, 200u);
  EXPECT_EQ(out.outputs[0].dtype, Dtype::F32);
  EXPECT_EQ(out.outputs[0].reference_key, "ref-1600");
  EXPECT_EQ(out.outputs[0].sampled, 36u);
  EXPECT_EQ(out.outputs[0].read_ranges, (std::vector<std::pair<size_t, size_t>>{{0, 16}, {100, 120}}));
  EXPECT_EQ(out.check_keys, in.check_keys);
  EXPECT_TRUE(out.options.hot);
  EXPECT_EQ(out.options.max_runs, 17);
  EXPECT_TRUE(out.fresh);
}

// An sm_90 launch: its tensor maps travel as their description (the worker encodes them over
// its own allocation) and its cluster dims beside the grid.
TEST(MeasureRequest, TensorMapArgumentsAndClusterDimsTravel) {
  MeasureRequest in = sample_request();
  LaunchStep& step = in.steps[0];
  step.grid_from.reset();
  step.cluster = {2, 1, 1};
  TensorMapArg map;
  map.buffer = "values";
  map.dtype = Dtype::BF16;
  map.dims = {1000, 900};
  map.strides = {2000};
  map.box = {64, 128};
  map.swizzle_bytes = 128;
  step.args.insert(step.args.begin() + 1, KernelArg::of_tensor_map(map));
  const MeasureRequest out = MeasureRequest::from_json(nlohmann::json::parse(in.to_json().dump()));
  const LaunchStep& s = out.steps.at(0);
  EXPECT_EQ(s.cluster.x, 2u);
  EXPECT_EQ(s.cluster.y, 1u);
  EXPECT_TRUE(s.clustered());
  ASSERT_EQ(s.args.size(), 7u);
  EXPECT_EQ(s.args[0].buffer, "values");
  EXPECT_FALSE(s.args[0].tensor_map);
  ASSERT_TRUE(s.args[1].tensor_map);
  EXPECT_TRUE(s.args[1].buffer.empty());  // the kernel gets the descriptor, not the address
  EXPECT_EQ(*s.args[1].tensor_map, map);
  EXPECT_TRUE(s.has_tensor_maps());
  EXPECT_EQ(s.args[2].scalar, in.steps[0].args[2].scalar);
  // A launch without clusters says so: one CTA each way.
  const MeasureRequest plain = MeasureRequest::from_json(nlohmann::json::parse(sample_request().to_json().dump()));
  EXPECT_FALSE(plain.steps.at(0).clustered());
  EXPECT_FALSE(plain.steps.at(0).has_tensor_maps());
}

TEST(MeasureRequest, VendorCallsTravel) {
  MeasureRequest in;
  in.kind = "vendor";
  in.vendor = {"cusparse_spmv", "cusparse-csr_alg2", {{"alg", "csr_alg2"}, {"nnz", int64_t{3} << 33}}};
  in.problem = Problem::of(Dtype::F64);
  const MeasureRequest out = MeasureRequest::from_json(in.to_json());
  EXPECT_EQ(out.kind, "vendor");
  EXPECT_EQ(out.vendor.name, "cusparse_spmv");
  EXPECT_EQ(out.vendor.label, "cusparse-csr_alg2");
  EXPECT_EQ(out.vendor.args, in.vendor.args);
  EXPECT_EQ(out.problem.precision, Precision::uniform(Dtype::F64));
}

TEST(MeasureRequest, KeysSplitDeviceFromHostWithoutRepeats) {
  MeasureRequest r;
  r.buffers = {{"a", 8, "k1"}, {"b", 8, "k1"}, {"c", 8, "k2"}, {"out", 8, ""}};
  r.outputs = {{"out", 2, Dtype::F32, "ref"}};
  EXPECT_EQ(r.device_keys(), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(r.host_keys(), (std::vector<std::string>{"ref"}));
  r.check_keys = {{"row_lengths", "len"}, {"again", "ref"}};
  EXPECT_EQ(r.host_keys(), (std::vector<std::string>{"len", "ref"}));
}

TEST(MeasureRequest, ContentKeyNamesBytesAndStoredSize) {
  const std::string a = content_key("abc", 3);
  EXPECT_EQ(a, content_key(std::string("abc"), 3));
  EXPECT_NE(a, content_key("abd", 3));
  EXPECT_NE(a, content_key("abc", 8));  // padded to another size: another entry
  EXPECT_EQ(a.substr(a.size() - 2), "-3");
  EXPECT_EQ(a.size(), 64u + 2u);
}

TEST(MeasureRequest, MalformedJsonThrows) {
  nlohmann::json j = sample_request().to_json();
  j["steps"][0]["args"][1] = {{"i32", "seven"}};
  EXPECT_THROW(MeasureRequest::from_json(j), nlohmann::json::exception);
  nlohmann::json missing = sample_request().to_json();
  missing.erase("outputs");
  EXPECT_THROW(MeasureRequest::from_json(missing), nlohmann::json::exception);
  nlohmann::json bad_op = sample_request().to_json();
  bad_op["program"][0]["op"] = "jump";
  EXPECT_THROW(MeasureRequest::from_json(bad_op), nlohmann::json::exception);
}

}  // namespace
}  // namespace ktune
