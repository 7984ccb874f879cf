// The transpose-transpose-GEMM-transpose baseline's arguments, carried out on the CPU exactly
// as gpu/cublas_ttgt_call.cpp reads them (permutations, a column-major GEMM with cuBLAS's
// transposes and leading dimensions, the fused output update), must give the contraction's
// reference for every preset and for contractions whose operands need permuting.
#include <gtest/gtest.h>

#include "kernels/contraction/contraction_reference.h"
#include "kernels/contraction/contraction_vendor.h"

namespace ktune {
namespace {

using nlohmann::json;

std::vector<double> permuted(const std::vector<double>& src, const json& p) {
  const auto extents = p.at("extents").get<std::vector<int64_t>>();
  const auto strides = p.at("strides").get<std::vector<int64_t>>();
  int64_t n = 1;
  for (int64_t e : extents) n *= e;
  std::vector<double> dst(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, offset = 0;
    for (size_t d = 0; d < extents.size(); ++d) {
      offset += rest % extents[d] * strides[d];
      rest /= extents[d];
    }
    dst[static_cast<size_t>(i)] = src.at(static_cast<size_t>(offset));
  }
  return dst;
}

// Element (row, col) of op(x), x column-major with leading dimension ld.
double element(const std::vector<double>& x, bool transposed, int64_t ld, int64_t row, int64_t col) {
  return transposed ? x.at(static_cast<size_t>(col + row * ld)) : x.at(static_cast<size_t>(row + col * ld));
}

std::vector<double> run_on_cpu(const ContractionSpec& s, const json& args) {
  std::vector<double> a = contraction_operand(ContractionTensor::A, s.a_elements());
  std::vector<double> b = contraction_operand(ContractionTensor::B, s.b_elements());
  const std::vector<double> in = contraction_operand(ContractionTensor::In, s.out_elements());
  if (args.contains("permute_a")) a = permuted(a, args["permute_a"]);
  if (args.contains("permute_b")) b = permuted(b, args["permute_b"]);
  const json& g = args.at("gemm");
  const int64_t m = g["m"], n = g["n"], k = g["k"], ldc = g["ldc"];
  std::vector<double> c(static_cast<size_t>(ldc * n));
  for (int64_t col = 0; col < n; ++col)
    for (int64_t row = 0; row < m; ++row) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l)
        sum += element(a, g["transpose_first"], g["ld_first"], row, l) *
               element(b, g["transpose_second"], g["ld_second"], l, col);
      c[static_cast<size_t>(row + col * ldc)] = sum;
    }
  std::vector<double> out = permuted(c, args.at("permute_out"));
  for (size_t i = 0; i < out.size(); ++i) out[i] = in[i] + args.at("scale").get<double>() * out[i];
  return out;
}

void expect_baseline_computes_the_reference(const std::string& expression, int64_t extent) {
  const ContractionSpec s = ContractionSpec::parse(expression, extent);
  const std::vector<VendorCall> calls = contraction_vendor_calls(s);
  ASSERT_EQ(calls.size(), 2u);
  for (const VendorCall& call : calls) {
    EXPECT_EQ(call.name, "cublas_ttgt");
    EXPECT_EQ(run_on_cpu(s, call.args), contraction_reference(s)) << expression << " " << call.label;
  }
}

TEST(ContractionVendor, EveryPresetPassesItsOperandsAsStoredAndPermutesOnlyTheOutput) {
  for (const auto& [name, text] : contraction_presets()) {
    expect_baseline_computes_the_reference(text, 4);
    const json args = contraction_vendor_calls(ContractionSpec::parse(text, 4)).front().args;
    EXPECT_FALSE(args.contains("permute_a")) << name;
    EXPECT_FALSE(args.contains("permute_b")) << name;
  }
}

TEST(ContractionVendor, OperandsInNeitherMatrixOrderArePermutedFirst) {
  const std::string expression = "C[i,j,k,m] -= A[k,l,i] * B[j,l,m]";
  expect_baseline_computes_the_reference(expression, 5);
  const json args = contraction_vendor_calls(ContractionSpec::parse(expression, 5)).front().args;
  EXPECT_TRUE(args.contains("permute_a"));
  EXPECT_TRUE(args.contains("permute_b"));
}

TEST(ContractionVendor, AMatrixProductIsOneGemmWithNothingToPermuteButTheIdentity) {
  const std::string expression = "C[i,j] += A[i,k] * B[k,j]";
  expect_baseline_computes_the_reference(expression, 7);
  const json args = contraction_vendor_calls(ContractionSpec::parse(expression, 7)).front().args;
  EXPECT_FALSE(args["gemm"]["transpose_first"].get<bool>());
  EXPECT_FALSE(args["gemm"]["transpose_second"].get<bool>());
  EXPECT_EQ(args["permute_out"]["strides"], (std::vector<int64_t>{1, 7}));
}

}  // namespace
}  // namespace ktune
