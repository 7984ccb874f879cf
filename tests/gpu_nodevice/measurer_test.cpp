#include "gpu/measurer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>

#include "gpu/cuda_driver.h"
#include "kernels/device_buffers.h"
#include "tests/gpu_nodevice/fake_worker.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

bool gpu_present() { return CudaDriver::load() && probe_device().present; }

// c = a + b over 4 floats; never run here, only checked and sent.
LaunchPlan vector_add_plan() {
  LaunchPlan plan;
  plan.buffers = {input_buffer<float>("a", {1, 2, 3, 4}), input_buffer<float>("b", {10, 20, 30, 40}), {"c", {}, 16}};
  plan.outputs = {{"c", 4, Dtype::F32}};
  LaunchStep step;
  step.entry = "add";
  step.grid = {1, 1, 1};
  step.block = {32, 1, 1};
  step.args = {KernelArg::of_buffer("a"), KernelArg::of_buffer("b"), KernelArg::of_buffer("c"),
               KernelArg::of_scalar(int32_t{4})};
  plan.steps = {step};
  return plan;
}

CompiledKernel fake_kernel() {
  CompiledKernel k;
  k.ok = true;
  k.cubin = std::string("\x7f" "ELF\0\0", 6);
  return k;
}

const std::vector<double> kSum = {11, 22, 33, 44};

Measurement measure_plan(Measurer& m, const LaunchPlan& plan, const std::vector<double>& reference = kSum) {
  return m.measure(fake_kernel(), plan, Reference{{"c", reference}}, MeasureOptions{});
}

// cuSPARSE's SpMV of a 2 x 2 diagonal matrix.
const VendorCall kSpmv{"cusparse_spmv", "cusparse-csr_alg1",
                       {{"alg", "csr_alg1"}, {"rows", 2}, {"cols", 2}, {"nnz", 2}, {"row_ptr", "row_ptr"},
                        {"col_idx", "col_idx"}, {"values", "values"}, {"x", "x"}, {"y", "y"}}};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(Measurer, RealWorkerWithoutGpuIsUnavailableAndSaysWhy) {
  if (gpu_present()) GTEST_SKIP() << "a GPU is present";
  Measurer m(KTUNE_MEASURE_WORKER);
  EXPECT_FALSE(m.available());
  const DeviceInfo d = m.device();
  EXPECT_FALSE(d.present);
  std::string why;
  CudaDriver::load(&why);
  EXPECT_EQ(d.why_absent, why);  // the worker's own probe, carried back over the protocol
}

TEST(Measurer, WithoutGpuMeasurementsFailPromptly) {
  if (gpu_present()) GTEST_SKIP() << "a GPU is present";
  Measurer m(KTUNE_MEASURE_WORKER);
  const auto start = std::chrono::steady_clock::now();
  const Measurement result = measure_plan(m, vector_add_plan());
  EXPECT_EQ(result.status, MeasureStatus::LaunchError);
  EXPECT_NE(result.message.find("no GPU"), std::string::npos) << result.message;
  LaunchPlan csr;
  csr.buffers = {input_buffer<int32_t>("row_ptr", {0, 1, 2}), input_buffer<int32_t>("col_idx", {0, 1}),
                 input_buffer<float>("values", {2, 3}), input_buffer<float>("x", {1, 1}), {"y", {}, 8}};
  csr.outputs = {{"y", 2, Dtype::F32}};
  const Measurement vendor = m.measure_vendor(csr, kSpmv, Reference{{"y", {2, 3}}}, MeasureOptions{});
  EXPECT_EQ(vendor.status, MeasureStatus::LaunchError);
  EXPECT_NE(vendor.message.find("no GPU"), std::string::npos) << vendor.message;
  EXPECT_THROW(m.device_copy_bandwidth_gbs(1 << 20), std::runtime_error);
  EXPECT_LT(seconds_since(start), 10.0);
}

TEST(Measurer, MissingWorkerProgramMakesItUnavailable) {
  Measurer m("no-such-directory/ktune-measure-worker");
  EXPECT_FALSE(m.available());
  EXPECT_NE(m.device().why_absent.find("no-such-directory/ktune-measure-worker"), std::string::npos);
  const Measurement result = measure_plan(m, vector_add_plan());
  EXPECT_EQ(result.status, MeasureStatus::LaunchError);
  EXPECT_NE(result.message.find("missing"), std::string::npos) << result.message;
}

TEST(Measurer, WorkerDyingAtStartupMakesItUnavailable) {
  const FakeWorker dies("exit 4");
  Measurer m(dies.path());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(m.available());
  EXPECT_NE(m.device().why_absent.find("did not start"), std::string::npos) << m.device().why_absent;
  EXPECT_LT(seconds_since(start), 10.0);
}

TEST(Measurer, PlanProblemsAreLaunchErrorsThatNameThem) {
  Measurer m("no-such-directory/ktune-measure-worker");
  auto problem = [&](const LaunchPlan& plan, const std::vector<double>& reference = kSum) {
    const Measurement r = measure_plan(m, plan, reference);
    EXPECT_EQ(r.status, MeasureStatus::LaunchError);
    return r.message;
  };
  LaunchPlan unknown = vector_add_plan();
  unknown.steps[0].args[1] = KernelArg::of_buffer("bb");
  EXPECT_NE(problem(unknown).find("'bb'"), std::string::npos);
  LaunchPlan twice = vector_add_plan();
  twice.buffers[1].name = "a";
  EXPECT_NE(problem(twice).find("two buffers"), std::string::npos);
  LaunchPlan no_output = vector_add_plan();
  no_output.outputs[0].buffer = "d";
  EXPECT_NE(problem(no_output).find("'d'"), std::string::npos);
  LaunchPlan bad_loop = vector_add_plan();
  bad_loop.program = {PlanOp::loop({PlanOp::run(0)}, "nowhere", 4)};
  EXPECT_NE(problem(bad_loop).find("'nowhere'"), std::string::npos);
  LaunchPlan bad_launch = vector_add_plan();
  bad_launch.program = {PlanOp::run(3)};
  EXPECT_NE(problem(bad_launch).find("runs launch 3"), std::string::npos);
  LaunchPlan small_output = vector_add_plan();
  small_output.buffers[2].size = 8;
  EXPECT_NE(problem(small_output).find("too small"), std::string::npos);
  EXPECT_NE(problem(vector_add_plan(), {1, 2, 3}).find("reference has 3"), std::string::npos);
  LaunchPlan empty_grid = vector_add_plan();
  empty_grid.steps[0].grid.x = 0;
  EXPECT_NE(problem(empty_grid).find("empty grid"), std::string::npos);

  CompiledKernel broken;
  broken.log = "error: expected ';'";
  const Measurement r = m.measure(broken, vector_add_plan(), Reference{{"c", kSum}}, MeasureOptions{});
  EXPECT_EQ(r.status, MeasureStatus::LaunchError);
  EXPECT_NE(r.message.find("expected ';'"), std::string::npos);
  const Measurement unreferenced = m.measure(fake_kernel(), vector_add_plan(), Reference{{"d", kSum}}, MeasureOptions{});
  EXPECT_NE(unreferenced.message.find("no values for output 'c'"), std::string::npos) << unreferenced.message;
}

TEST(Measurer, ClientMistakesThrowInputError) {
  Measurer m("no-such-directory/ktune-measure-worker");
  MeasureOptions bad;
  bad.max_runs = 0;
  EXPECT_THROW(m.measure(fake_kernel(), vector_add_plan(), Reference{{"c", kSum}}, bad), InputError);
  EXPECT_THROW(m.measure_vendor(vector_add_plan(), kSpmv, Reference{{"c", kSum}}, bad), InputError);
  EXPECT_THROW(m.device_copy_bandwidth_gbs(0), InputError);
}

TEST(Measurer, DefaultWorkerPathIsBesideTheExecutable) {
  const std::filesystem::path expected =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "ktune-measure-worker";
  EXPECT_EQ(default_worker_path(), expected.string());
}

}  // namespace
}  // namespace ktune
