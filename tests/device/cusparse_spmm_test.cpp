// cuSPARSE's SpMM as the worker runs it for the spmm family's baselines: every CSR algorithm,
// fp32 and fp64, on the family's own plan (CSR, B, C row-major) and verified by its verifier.
#include <gtest/gtest.h>

#include "kernels/kernel_family.h"
#include "tests/device/device_fixture.h"
#include "tests/kernels/random_csr.h"

namespace ktune {
namespace {

struct SpmmCase {
  Workload workload;
  Problem problem;
  LaunchPlan plan;
  Reference reference;
};

// A random CSR matrix with empty rows and K not a multiple of any vector width.
SpmmCase spmm_case(Dtype dtype, int32_t k) {
  const KernelFamily& family = *find_family("spmm");
  SpmmCase c;
  c.workload.matrix = testing_support::random_csr(3000, 2500, 12, 5);
  c.problem = make_problem(family, {{"k", k}}, Precision::uniform(dtype));
  c.plan = family.vendor_plan(c.workload, c.problem);
  c.reference = family.reference(c.workload, c.problem);
  return c;
}

class CusparseSpmm : public DeviceTest {
 protected:
  void expect_every_algorithm_verifies(Dtype dtype, int32_t k) {
    const SpmmCase c = spmm_case(dtype, k);
    const std::vector<VendorCall> calls = find_family("spmm")->vendor_calls(c.workload, c.problem);
    ASSERT_FALSE(calls.empty());
    MeasureOptions options;
    options.max_seconds = 0.5;
    for (const VendorCall& call : calls) {
      const Measurement m = measurer().measure_vendor(c.plan, call, c.reference, options);
      EXPECT_EQ(m.status, MeasureStatus::Ok) << call.label << " k=" << k << ": " << m.message;
      EXPECT_GT(m.median_us, 0) << call.label;
    }
  }
};

TEST_F(CusparseSpmm, EveryAlgorithmVerifiesInFloat) { expect_every_algorithm_verifies(Dtype::F32, 33); }
TEST_F(CusparseSpmm, EveryAlgorithmVerifiesInDouble) { expect_every_algorithm_verifies(Dtype::F64, 128); }

TEST_F(CusparseSpmm, WrongReferenceIsCaught) {
  SpmmCase c = spmm_case(Dtype::F32, 16);
  std::vector<double>& expected = c.reference.at("c");
  size_t element = 0;
  while (expected[element] == 0) ++element;
  expected[element] *= 2;
  const VendorCall call = find_family("spmm")->vendor_calls(c.workload, c.problem).front();
  const Measurement m = measurer().measure_vendor(c.plan, call, c.reference, MeasureOptions{});
  EXPECT_EQ(m.status, MeasureStatus::VerifyFailed);
  EXPECT_NE(m.message.find("element " + std::to_string(element)), std::string::npos) << m.message;
}

}  // namespace
}  // namespace ktune
