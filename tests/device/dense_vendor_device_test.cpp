// The dense families' vendor baselines as the worker runs them, each verified by its family's
// verifier against the CPU reference: cuBLAS and cublasLt on GEMM shapes, and
// transpose-transpose-GEMM-transpose on contractions whose operands need no permutation, one
// or both (and whose output needs one).
#include <gtest/gtest.h>

#include "kernels/kernel_family.h"
#include "tests/device/device_fixture.h"

namespace ktune {
namespace {

class DenseVendor : public DeviceTest {
 protected:
  void expect_every_call_verifies(const std::string& kernel, const nlohmann::json& params, Dtype dtype) {
    const KernelFamily& family = *find_family(kernel);
    const Workload workload;
    const Problem problem = make_problem(family, params, Precision::uniform(dtype));
    const LaunchPlan plan = family.vendor_plan(workload, problem);
    const Reference reference = family.reference(workload, problem);
    const std::vector<VendorCall> calls = family.vendor_calls(workload, problem);
    ASSERT_FALSE(calls.empty());
    MeasureOptions options;
    options.max_seconds = 0.3;
    for (const VendorCall& call : calls) {
      const Measurement m = measurer().measure_vendor(plan, call, reference, options);
      EXPECT_EQ(m.status, MeasureStatus::Ok) << kernel << " " << params.dump() << " " << call.label << ": " << m.message;
    }
  }
};

TEST_F(DenseVendor, CublasGemmsVerify) {
  expect_every_call_verifies("gemm", {{"m", 200}, {"n", 136}, {"k", 72}}, Dtype::F32);
  expect_every_call_verifies("gemm", {{"m", 128}, {"n", 96}, {"k", 64}, {"layout", "tn"}}, Dtype::F64);
}

TEST_F(DenseVendor, TransposeGemmTransposeVerifiesOnEveryKindOfReshaping) {
  // The presets pass both operands as stored, one transposed or both.
  for (const char* preset : {"sd_t_d1_1", "sd_t_d1_4", "sd_t_d2_1", "sd_t_d2_7"})
    expect_every_call_verifies("contraction", {{"preset", preset}, {"extent", 8}}, Dtype::F64);
  // Both operands permuted before the GEMM.
  expect_every_call_verifies("contraction", {{"expression", "C[i,j,k,m] += A[k,l,i] * B[j,l,m]"}, {"extent", 12}},
                             Dtype::F32);
}

}  // namespace
}  // namespace ktune
