// Loops the device runs (gpu/device_loop_graph.h): the iterative test plan, run by the plan
// runner as one CUDA graph and again with the host testing each iteration, gives the reference
// both ways; the times of both are printed for the record.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include "gpu/plan_runner.h"
#include "tests/device/device_fixture.h"
#include "tests/kernels/iterative_plan.h"

namespace ktune {
namespace {

using namespace testing_support;

struct LoopRun {
  bool on_device = false;
  Reference outputs;
  double microseconds = 0;  // median of repeated runs of the whole program
};

LoopRun run_plan(const CudaDriver& cu, const CudaModule& module, const LaunchPlan& plan, CUstream stream) {
  BufferTable table;
  for (const DeviceBuffer& b : plan.buffers) {
    table.owned.emplace_back(cu, b.size);
    table.address[b.name] = table.owned.back().get();
    table.size[b.name] = b.size;
  }
  PlanRunner runner(cu, module, plan.steps, plan.program, table);
  LoopRun r;
  r.on_device = runner.loops_on_device();
  runner.run(stream);
  cu.check(cu.stream_synchronize(stream), "running the plan");
  for (const PlanOutput& o : plan.outputs) {
    std::vector<float> values(o.elements);
    cu.check(cu.memcpy_dtoh(values.data(), table.at(o.buffer), values.size() * sizeof(float)), "reading an output");
    r.outputs[o.buffer] = std::vector<double>(values.begin(), values.end());
  }
  CudaEvent start(cu), stop(cu);
  std::vector<double> times;
  for (int i = 0; i < 50; ++i) {
    cu.check(cu.event_record(start.get(), stream), "recording");
    runner.run(stream);
    cu.check(cu.event_record(stop.get(), stream), "recording");
    cu.check(cu.event_synchronize(stop.get()), "waiting");
    float ms = 0;
    cu.check(cu.event_elapsed_time(&ms, start.get(), stop.get()), "timing");
    times.push_back(ms * 1000.0);
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  r.microseconds = times[times.size() / 2];
  return r;
}

// The driver, a context, a stream and the test plan's module.
class DeviceLoopTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) return;
    cu_ = CudaDriver::load();
    ASSERT_NE(cu_, nullptr);
    CUdevice device = 0;
    cu_->check(cu_->device_get(&device, 0), "finding the device");
    context_ = std::make_unique<PrimaryContext>(*cu_, device);
    stream_ = std::make_unique<CudaStream>(*cu_);
    kernel_ = compile_for_device(iterative_source(), {"halve", "mark"});
    module_ = std::make_unique<CudaModule>(*cu_, kernel_.cubin.data());
  }
  LoopRun run(const LaunchPlan& plan) { return run_plan(*cu_, *module_, plan, stream_->get()); }

  const CudaDriver* cu_ = nullptr;
  std::unique_ptr<PrimaryContext> context_;
  std::unique_ptr<CudaStream> stream_;
  CompiledKernel kernel_;
  std::unique_ptr<CudaModule> module_;
};

TEST_F(DeviceLoopTest, ALoopTheDeviceRunsGivesTheAnswerOfTheHostLoop) {
  ASSERT_TRUE(cu_->has_conditional_graphs()) << "this driver has no conditional graph nodes";
  const LaunchPlan plan = iterative_plan();
  unsetenv("KTUNE_LOOPS");
  const LoopRun on_device = run(plan);
  setenv("KTUNE_LOOPS", "host", 1);
  const LoopRun on_host = run(plan);
  unsetenv("KTUNE_LOOPS");

  EXPECT_TRUE(on_device.on_device);
  EXPECT_FALSE(on_host.on_device);
  EXPECT_EQ(on_device.outputs, iterative_reference());
  EXPECT_EQ(on_host.outputs, iterative_reference());
  std::cout << "iterative plan (" << iterative_iterations() << " iterations): device loop " << on_device.microseconds
            << " us, host loop " << on_host.microseconds << " us\n";
}

// A loop that would not end stops at its bound on the device too.
TEST_F(DeviceLoopTest, ALoopTheDeviceRunsStopsAtItsBound) {
  LaunchPlan plan = iterative_plan();
  plan.program.back().max_iterations = 3;
  const LoopRun r = run(plan);
  EXPECT_TRUE(r.on_device);
  EXPECT_EQ(r.outputs.at("acc")[0], 1000 + 500 + 250);
}

}  // namespace
}  // namespace ktune
