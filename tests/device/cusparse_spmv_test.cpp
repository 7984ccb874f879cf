#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tests/device/device_fixture.h"

namespace ktune {
namespace {

// A random CSR matrix of rows x cols, a few entries per row (some rows empty), with x,
// as the plan buffers cuSPARSE reads, and y = A x in double from the values as uploaded.
template <typename T>
struct CsrProblem {
  LaunchPlan plan;
  std::vector<double> reference;
  int64_t nnz = 0;
};

template <typename T>
CsrProblem<T> csr_problem(int32_t rows, int32_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> per_row(0, 9), column(0, cols - 1);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<int32_t> row_ptr{0}, col_idx;
  std::vector<T> values, x(static_cast<size_t>(cols));
  for (T& xi : x) xi = static_cast<T>(value(rng));
  CsrProblem<T> p;
  for (int32_t r = 0; r < rows; ++r) {
    std::vector<int32_t> columns(static_cast<size_t>(per_row(rng)));
    for (int32_t& c : columns) c = column(rng);
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    double sum = 0;
    for (int32_t c : columns) {
      const T v = static_cast<T>(value(rng));
      col_idx.push_back(c);
      values.push_back(v);
      sum += static_cast<double>(v) * static_cast<double>(x[static_cast<size_t>(c)]);
    }
    row_ptr.push_back(static_cast<int32_t>(col_idx.size()));
    p.reference.push_back(sum);
  }
  p.nnz = static_cast<int64_t>(col_idx.size());
  p.plan.buffers = {input_buffer("row_ptr", row_ptr), input_buffer("col_idx", col_idx),
                    input_buffer("values", values), input_buffer("x", x),
                    {"y", {}, static_cast<size_t>(rows) * sizeof(T)}};
  p.plan.outputs = {{"y", static_cast<size_t>(rows), std::is_same_v<T, float> ? Dtype::F32 : Dtype::F64}};
  p.plan.problem = Problem::of(p.plan.outputs[0].dtype);
  // SpMV's verifier, with each row's length as its reduction length.
  p.plan.family = "spmv";
  std::vector<int32_t> lengths;
  for (size_t r = 0; r + 1 < row_ptr.size(); ++r) lengths.push_back(row_ptr[r + 1] - row_ptr[r]);
  p.plan.check_data["row_lengths"] = input_buffer("row_lengths", lengths).bytes;
  return p;
}

template <typename T>
VendorCall spmv_call(const CsrProblem<T>& p, int32_t rows, int32_t cols, const char* alg) {
  return {"cusparse_spmv", std::string("cusparse-") + alg,
          {{"alg", alg}, {"rows", rows}, {"cols", cols}, {"nnz", p.nnz}, {"row_ptr", "row_ptr"}, {"col_idx", "col_idx"},
           {"values", "values"}, {"x", "x"}, {"y", "y"}}};
}

class CusparseSpmv : public DeviceTest {
 protected:
  template <typename T>
  void expect_ok(Dtype dtype, const char* alg) {
    const CsrProblem<T> p = csr_problem<T>(3000, 2500, 5);
    MeasureOptions options;
    options.max_seconds = 0.5;
    const Measurement m = measurer().measure_vendor(p.plan, spmv_call(p, 3000, 2500, alg), Reference{{"y", p.reference}}, options);
    EXPECT_EQ(m.status, MeasureStatus::Ok) << alg << ": " << m.message;
    EXPECT_GT(m.median_us, 0);
    EXPECT_GT(m.count, 0);
  }
};

TEST_F(CusparseSpmv, Alg1FloatVerifies) { expect_ok<float>(Dtype::F32, "csr_alg1"); }
TEST_F(CusparseSpmv, Alg2FloatVerifies) { expect_ok<float>(Dtype::F32, "csr_alg2"); }
TEST_F(CusparseSpmv, Alg1DoubleVerifies) { expect_ok<double>(Dtype::F64, "csr_alg1"); }
TEST_F(CusparseSpmv, Alg2DoubleVerifies) { expect_ok<double>(Dtype::F64, "csr_alg2"); }

TEST_F(CusparseSpmv, WrongReferenceIsCaught) {
  CsrProblem<float> p = csr_problem<float>(500, 400, 6);
  size_t row = 0;
  while (p.reference[row] == 0) ++row;
  p.reference[row] *= 2;
  const Measurement m =
      measurer().measure_vendor(p.plan, spmv_call(p, 500, 400, "csr_alg1"), Reference{{"y", p.reference}}, MeasureOptions{});
  EXPECT_EQ(m.status, MeasureStatus::VerifyFailed);
  EXPECT_NE(m.message.find("element " + std::to_string(row)), std::string::npos) << m.message;
}

}  // namespace
}  // namespace ktune
