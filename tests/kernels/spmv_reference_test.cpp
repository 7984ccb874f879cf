#include "kernels/spmv/spmv_reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernels/input_vector.h"
#include "kernels/spmv/spmv_family.h"
#include "random_csr.h"

namespace ktune {
namespace {

using testing_support::random_csr;

// y = A·x through the dense form of A.
std::vector<double> dense_product(const CsrF64& a, const std::vector<double>& x) {
  std::vector<double> dense(static_cast<size_t>(a.rows) * a.cols, 0.0);
  for (int32_t r = 0; r < a.rows; ++r) {
    for (int32_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
      dense[static_cast<size_t>(r) * a.cols + a.col_idx[i]] = a.values[i];
    }
  }
  std::vector<double> y(a.rows, 0.0);
  for (int32_t r = 0; r < a.rows; ++r) {
    for (int32_t c = 0; c < a.cols; ++c) y[r] += dense[static_cast<size_t>(r) * a.cols + c] * x[c];
  }
  return y;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "row " << i;
}

TEST(SpmvReference, MatchesTheDenseProduct) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    const CsrF64 a = random_csr(40 + 13 * seed, 30 + 7 * seed, 12, seed);
    std::vector<double> x(a.cols);
    for (double& v : x) v = value(rng);
    expect_close(spmv_reference(a, x), dense_product(a, x));
  }
}

TEST(SpmvReference, EmptyRowsGiveZero) {
  const CsrF64 a = random_csr(50, 20, 3, 11);
  const std::vector<double> y = spmv_reference(a, std::vector<double>(a.cols, 1.0));
  for (int32_t r = 0; r < a.rows; ++r) {
    if (a.row_length(r) == 0) {
      EXPECT_EQ(y[r], 0.0);
    }
  }
}

TEST(SpmvReference, RefusesAnXOfTheWrongLength) {
  const CsrF64 a = random_csr(5, 6, 2, 3);
  EXPECT_THROW(spmv_reference(a, std::vector<double>(5, 1.0)), std::invalid_argument);
}

TEST(SpmvReference, FamilyReferenceUsesTheDeterministicX) {
  Workload w;
  w.matrix = random_csr(64, 48, 9, 21);
  expect_close(SpmvFamily().reference(w, {}).at("y"), dense_product(w.matrix, deterministic_input_vector(48)));
}

}  // namespace
}  // namespace ktune
