#include "kernels/output_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace ktune {
namespace {

// The reduction check with one length per element (empty: 1 each).
Verdict verify_output(std::string_view out, Dtype dtype, const std::vector<double>& reference,
                      const std::vector<int32_t>& lengths) {
  return check_reduction_output(out, dtype, reference, [&lengths](size_t i) {
    return lengths.empty() ? 1.0 : static_cast<double>(lengths.at(i));
  });
}

template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// A float SpMV-like computation: each output sums `length` rounded products, so it carries
// real rounding error against the double reference.
struct RoundedSums {
  std::vector<double> reference;
  std::vector<float> computed;
  std::vector<int32_t> lengths;
};

RoundedSums rounded_sums(int rows, int length, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  RoundedSums out;
  for (int r = 0; r < rows; ++r) {
    double exact = 0;
    float sum = 0;
    for (int k = 0; k < length; ++k) {
      const double a = value(rng), x = value(rng);
      exact += a * x;
      sum += static_cast<float>(a) * static_cast<float>(x);
    }
    out.reference.push_back(exact);
    out.computed.push_back(sum);
    out.lengths.push_back(length);
  }
  return out;
}

TEST(MeasureVerification, FloatRoundingPassesWithRowLengths) {
  const RoundedSums s = rounded_sums(500, 200, 1);
  const Verdict v = verify_output(bytes_of(s.computed), Dtype::F32, s.reference, s.lengths);
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_GT(v.max_rel_error, 0);  // float sums of 200 terms are not exact
  EXPECT_LT(v.max_rel_error, 8 * std::ldexp(1.0, -24) * 202);
}

TEST(MeasureVerification, ExactDoublesPass) {
  const std::vector<double> reference = {1.5, -2.25, 0, 1e300};
  const Verdict v = verify_output(bytes_of(reference), Dtype::F64, reference, {});
  EXPECT_TRUE(v.ok);
  EXPECT_EQ(v.max_rel_error, 0);
  EXPECT_EQ(v.bad_elements, 0);
  EXPECT_TRUE(v.message.empty());
}

TEST(MeasureVerification, AMissingTermFails) {
  RoundedSums s = rounded_sums(100, 50, 2);
  s.computed[37] -= 0.25f;  // one product of magnitude 0.25 left out
  const Verdict v = verify_output(bytes_of(s.computed), Dtype::F32, s.reference, s.lengths);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.bad_elements, 1);
  EXPECT_NE(v.message.find("element 37"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("1 of 100"), std::string::npos) << v.message;
}

TEST(MeasureVerification, ToleranceGrowsWithRowLength) {
  // |ref| max 1: an error of 1e-5 is beyond 8 u (1 + 2) = 1.4e-6 but within 8 u (100 + 2) = 4.9e-5.
  const std::vector<double> reference = {1.0, 0.5};
  const std::vector<float> output = {1.0f + 1e-5f, 0.5f};
  EXPECT_FALSE(verify_output(bytes_of(output), Dtype::F32, reference, {1, 1}).ok);
  EXPECT_TRUE(verify_output(bytes_of(output), Dtype::F32, reference, {100, 1}).ok);
  EXPECT_FALSE(verify_output(bytes_of(output), Dtype::F32, reference, {}).ok);  // no lengths: 1 each
}

TEST(MeasureVerification, ToleranceScalesWithDtype) {
  // The same relative error 1e-9 is rounding for f32 but a wrong answer for f64.
  const std::vector<double> reference = {1.0};
  const std::vector<double> as_double = {1.0 + 1e-9};
  EXPECT_FALSE(verify_output(bytes_of(as_double), Dtype::F64, reference, {}).ok);
  const std::vector<float> as_float = {1.0f};
  EXPECT_TRUE(verify_output(bytes_of(as_float), Dtype::F32, {1.0 + 1e-9}, {}).ok);
}

TEST(MeasureVerification, CancellingRowsUseTheLargestOutputAsScale) {
  // Row 0 cancels to zero in exact arithmetic; float rounding leaves 3e-8 of a term of size 1.
  const std::vector<double> reference = {0.0, 1.0};
  const std::vector<float> output = {3e-8f, 1.0f};
  EXPECT_TRUE(verify_output(bytes_of(output), Dtype::F32, reference, {4, 4}).ok);
}

TEST(MeasureVerification, NanPoisonLeftInPlaceFails) {
  const std::vector<double> reference = {1, 2, 3};
  const std::vector<float> output = {1, std::numeric_limits<float>::quiet_NaN(), 3};
  const Verdict v = verify_output(bytes_of(output), Dtype::F32, reference, {});
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(std::isinf(v.max_rel_error));
  EXPECT_NE(v.message.find("did not write it"), std::string::npos) << v.message;
}

TEST(MeasureVerification, NonFiniteReferenceNeedsTheSameValue) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(verify_output(bytes_of(std::vector<double>{inf, nan}), Dtype::F64, {inf, nan}, {}).ok);
  EXPECT_FALSE(verify_output(bytes_of(std::vector<double>{-inf, nan}), Dtype::F64, {inf, nan}, {}).ok);
  EXPECT_FALSE(verify_output(bytes_of(std::vector<double>{inf, 0.0}), Dtype::F64, {inf, nan}, {}).ok);
}

TEST(MeasureVerification, AllZeroReferenceAcceptsZerosOnly) {
  const std::vector<double> reference = {0, 0};
  EXPECT_TRUE(verify_output(bytes_of(std::vector<double>{0.0, -0.0}), Dtype::F64, reference, {}).ok);
  EXPECT_FALSE(verify_output(bytes_of(std::vector<double>{0.0, 1e-6}), Dtype::F64, reference, {}).ok);
}

TEST(MeasureVerification, SizeMismatchesAreReported) {
  const std::vector<double> reference = {1, 2};
  const Verdict short_output = verify_output(bytes_of(std::vector<float>{1}), Dtype::F32, reference, {});
  EXPECT_FALSE(short_output.ok);
  EXPECT_NE(short_output.message.find("4 bytes"), std::string::npos) << short_output.message;
  const Verdict f16 = verify_output(std::string(4, '\0'), Dtype::F16, reference, {});
  EXPECT_FALSE(f16.ok);
  EXPECT_NE(f16.message.find("f16"), std::string::npos) << f16.message;
}

TEST(MeasureVerification, ExactOutputsMustMatchEveryElement) {
  const std::vector<double> depths = {0, 1, 1, 2, -1};
  EXPECT_TRUE(check_exact_output(bytes_of(std::vector<float>{0, 1, 1, 2, -1}), Dtype::F32, depths).ok);
  const Verdict off = check_exact_output(bytes_of(std::vector<double>{0, 1, 2, 2, -1}), Dtype::F64, depths);
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.message.find("element 2"), std::string::npos) << off.message;
  EXPECT_EQ(off.bad_elements, 1);
}

TEST(MeasureVerification, IntegerOutputsAreCheckedExactly) {
  const std::vector<double> depths = {0, 1, 1, 2, -1};
  EXPECT_TRUE(check_exact_output(bytes_of(std::vector<int32_t>{0, 1, 1, 2, -1}), Dtype::I32, depths).ok);
  const Verdict off = check_exact_output(bytes_of(std::vector<int32_t>{0, 1, 1, 2, 3}), Dtype::I32, depths);
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.message.find("element 4 is 3, expected -1"), std::string::npos) << off.message;
  // The device's poison word, left where the kernel wrote nothing.
  const int32_t poison = 0x7FF87FF8;
  EXPECT_FALSE(check_exact_output(bytes_of(std::vector<int32_t>{0, poison, 1, 2, -1}), Dtype::I32, depths).ok);
  const Verdict short_output = check_exact_output(bytes_of(std::vector<int32_t>{0, 1}), Dtype::I32, depths);
  EXPECT_FALSE(short_output.ok);
  EXPECT_NE(short_output.message.find("5 i32 values"), std::string::npos) << short_output.message;
}

TEST(MeasureVerification, IntegerOutputsHaveNoTolerance) {
  const Verdict v = verify_output(bytes_of(std::vector<int32_t>{1, 2}), Dtype::I32, {1, 2}, {});
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("checked exactly"), std::string::npos) << v.message;
  EXPECT_FALSE(check_exact_output(std::string(4, '\0'), Dtype::F16, {1, 2}).ok);
}

}  // namespace
}  // namespace ktune
