// cuSPARSE's SDDMM as the sddmm family's baseline: the call the family names, on the family's
// vendor plan, must reproduce the family's reference (so that the two compute the same thing),
// and a wrong reference must be caught.
#include <gtest/gtest.h>

#include "kernels/sddmm/sddmm_family.h"
#include "tests/device/device_fixture.h"
#include "tests/kernels/random_csr.h"

namespace ktune {
namespace {

class CusparseSddmm : public DeviceTest {
 protected:
  // Empty rows, rows up to 40 long; K not a multiple of 4.
  Workload workload() const {
    Workload w;
    w.matrix = testing_support::random_csr(3000, 2500, 40, 5);
    return w;
  }

  void expect_ok(Dtype dtype, int64_t k) {
    const SddmmFamily family;
    const Workload w = workload();
    const Problem problem = Problem::of(dtype, {{"k", k}});
    MeasureOptions options;
    options.max_seconds = 0.5;
    const Measurement m = measurer().measure_vendor(family.vendor_plan(w, problem), family.vendor_calls(w, problem).at(0),
                                                    family.reference(w, problem), options);
    EXPECT_EQ(m.status, MeasureStatus::Ok) << to_string(dtype) << " k=" << k << ": " << m.message;
    EXPECT_GT(m.median_us, 0);
    EXPECT_GT(m.count, 0);
  }
};

TEST_F(CusparseSddmm, FloatVerifies) {
  expect_ok(Dtype::F32, 32);
  expect_ok(Dtype::F32, 129);
}

TEST_F(CusparseSddmm, DoubleVerifies) {
  expect_ok(Dtype::F64, 32);
  expect_ok(Dtype::F64, 1);
}

TEST_F(CusparseSddmm, WrongReferenceIsCaught) {
  const SddmmFamily family;
  const Workload w = workload();
  const Problem problem = Problem::of(Dtype::F32, {{"k", 32}});
  Reference reference = family.reference(w, problem);
  reference.at("c")[100] += 1;
  const Measurement m = measurer().measure_vendor(family.vendor_plan(w, problem), family.vendor_calls(w, problem).at(0),
                                                  reference, MeasureOptions{});
  EXPECT_EQ(m.status, MeasureStatus::VerifyFailed);
  EXPECT_NE(m.message.find("element 100"), std::string::npos) << m.message;
}

}  // namespace
}  // namespace ktune
