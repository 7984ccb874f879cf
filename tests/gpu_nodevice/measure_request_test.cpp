#include "gpu/measure_request.h"

#include <gtest/gtest.h>

#include <limits>

namespace ktune {
namespace {

MeasureRequest sample_request() {
  MeasureRequest r;
  r.buffers = {{"values", 4096, "aa-4096"}, {"y", 800, ""}};
  LaunchStep step;
  step.entry = "_Z4spmvPKfPf";
  step.grid = {1000, 2, 3};
  step.block = {256, 1, 1};
  step.shared_bytes = 65536;
  step.args = {KernelArg::of_buffer("values"), KernelArg::of_scalar(int32_t{-7}),
               KernelArg::of_scalar(int64_t{1} << 40), KernelArg::of_scalar(0.1f),
               KernelArg::of_scalar(std::numeric_limits<double>::min()), KernelArg::of_buffer("y")};
  r.steps = {step};
  r.output = "y";
  r.output_elements = 200;
  r.dtype = Dtype::F32;
  r.reference_key = "ref-1600";
  r.row_lengths_key = "len-800";
  r.options.hot = true;
  r.options.max_runs = 17;
  r.fresh = true;
  return r;
}

TEST(MeasureRequest, JsonRoundTripKeepsEveryField) {
  const MeasureRequest in = sample_request();
  const MeasureRequest out = MeasureRequest::from_json(nlohmann::json::parse(in.to_json().dump()));
  ASSERT_EQ(out.buffers.size(), 2u);
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
  EXPECT_EQ(out.output, "y");
  EXPECT_EQ(out.output_elements, 200u);
  EXPECT_EQ(out.dtype, Dtype::F32);
  EXPECT_EQ(out.reference_key, "ref-1600");
  EXPECT_EQ(out.row_lengths_key, "len-800");
  EXPECT_TRUE(out.options.hot);
  EXPECT_EQ(out.options.max_runs, 17);
  EXPECT_TRUE(out.fresh);
}

TEST(MeasureRequest, CusparseFieldsTravel) {
  MeasureRequest in;
  in.kind = "cusparse_spmv";
  in.alg = "csr_alg2";
  in.rows = 5;
  in.cols = 7;
  in.nnz = int64_t{3} << 33;
  in.dtype = Dtype::F64;
  const MeasureRequest out = MeasureRequest::from_json(in.to_json());
  EXPECT_EQ(out.kind, "cusparse_spmv");
  EXPECT_EQ(out.alg, "csr_alg2");
  EXPECT_EQ(out.rows, 5);
  EXPECT_EQ(out.cols, 7);
  EXPECT_EQ(out.nnz, int64_t{3} << 33);
  EXPECT_EQ(out.dtype, Dtype::F64);
}

TEST(MeasureRequest, KeysSplitDeviceFromHostWithoutRepeats) {
  MeasureRequest r;
  r.buffers = {{"a", 8, "k1"}, {"b", 8, "k1"}, {"c", 8, "k2"}, {"out", 8, ""}};
  r.reference_key = "ref";
  EXPECT_EQ(r.device_keys(), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(r.host_keys(), (std::vector<std::string>{"ref"}));
  r.row_lengths_key = "len";
  EXPECT_EQ(r.host_keys(), (std::vector<std::string>{"ref", "len"}));
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
  missing.erase("output");
  EXPECT_THROW(MeasureRequest::from_json(missing), nlohmann::json::exception);
}

}  // namespace
}  // namespace ktune
