// A plan with control flow on the GPU: the worker runs its fills, its loop until the counter
// reaches 0 and the grid sized from that counter, verifies every output, and times the whole
// plan as one measurement.
#include <gtest/gtest.h>

#include "tests/device/device_fixture.h"
#include "tests/kernels/iterative_plan.h"

namespace ktune {
namespace {

using namespace testing_support;

TEST_F(DeviceTest, AnIterativePlanRunsToItsAnswerAndIsTimedWhole) {
  const CompiledKernel k = compile_for_device(iterative_source(), {"halve", "mark"});
  MeasureOptions options;
  options.max_seconds = 0.5;
  const Measurement m = measurer().measure(k, iterative_plan(), iterative_reference(), options);
  EXPECT_EQ(m.status, MeasureStatus::Ok) << m.message;
  // Ten iterations of two launches and a loop test.
  EXPECT_GT(m.median_us, 10.0);
}

TEST_F(DeviceTest, AWrongIterativeAnswerFailsItsCheck) {
  const CompiledKernel k = compile_for_device(iterative_source(), {"halve", "mark"});
  Reference wrong = iterative_reference();
  wrong.at("marks")[0] += 1;
  const Measurement m = measurer().measure(k, iterative_plan(), wrong, MeasureOptions{});
  EXPECT_EQ(m.status, MeasureStatus::VerifyFailed);
  EXPECT_NE(m.message.find("marks: output element 0"), std::string::npos) << m.message;
}

}  // namespace
}  // namespace ktune
