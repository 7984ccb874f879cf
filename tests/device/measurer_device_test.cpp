#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <random>

#include "tests/device/device_fixture.h"

namespace ktune {
namespace {

const char* const kKernels = R"(
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void add_wrong(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i] + (i == 77 ? 1.0f : 0.0f);
}
extern "C" __global__ void add_skipping(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i != 123) c[i] = a[i] + b[i];
}
extern "C" __global__ void add_faulting(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) *reinterpret_cast<volatile float*>(static_cast<unsigned long long>(16)) = 1.0f;
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void add_forever(const float* a, const float* b, float* c, int n) {
  // __nanosleep is volatile asm: the loop cannot be optimised away, and n is never negative.
  for (;;) {
    __nanosleep(1000);
    if (n < 0) break;
  }
}
extern "C" __global__ void add_through_shared(const float* a, const float* b, float* c, int n) {
  extern __shared__ float staged[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  if (i < n) c[i] = staged[threadIdx.x] + b[i];
}
extern "C" __global__ void zero(float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = 0;
}
extern "C" __global__ void accumulate(const float* a, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[i % 4], a[i]);
}
template <typename T>
__global__ void scale(T alpha, const T* x, T* y, long long n) {
  long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = alpha * x[i];
}
)";

const std::vector<std::string> kEntries = {"add",         "add_wrong",         "add_skipping", "add_faulting",
                                           "add_forever", "add_through_shared", "accumulate",   "scale<double>", "zero"};

const CompiledKernel& kernels() {
  static const CompiledKernel k = compile_for_device(kKernels, kEntries);
  return k;
}

struct VectorAdd {
  LaunchPlan plan;
  std::vector<double> reference;
};

VectorAdd vector_add(const std::string& entry, int n, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-100, 100);
  std::vector<float> a(n), b(n);
  VectorAdd v;
  for (int i = 0; i < n; ++i) {
    a[i] = value(rng);
    b[i] = value(rng);
    v.reference.push_back(static_cast<double>(a[i]) + static_cast<double>(b[i]));
  }
  v.plan.buffers = {input_buffer("a", a), input_buffer("b", b), {"c", {}, n * sizeof(float)}};
  v.plan.outputs = {{"c", static_cast<size_t>(n), Dtype::F32}};
  LaunchStep step;
  step.entry = entry;
  step.block = {256, 1, 1};
  step.grid = {static_cast<uint32_t>((n + 255) / 256), 1, 1};
  step.args = {KernelArg::of_buffer("a"), KernelArg::of_buffer("b"), KernelArg::of_buffer("c"),
               KernelArg::of_scalar(int32_t{n})};
  v.plan.steps = {step};
  return v;
}

LaunchStep launch(std::string entry, Dim3 grid, Dim3 block, std::vector<KernelArg> args) {
  LaunchStep s;
  s.entry = std::move(entry);
  s.grid = grid;
  s.block = block;
  s.args = std::move(args);
  return s;
}

MeasureOptions quick() {
  MeasureOptions o;
  o.max_seconds = 0.5;
  o.kernel_timeout_s = 5;
  return o;
}

class MeasurerDevice : public DeviceTest {
 protected:
  Measurement run(const VectorAdd& v, const MeasureOptions& options = quick()) {
    return measurer().measure(kernels(), v.plan, Reference{{"c", v.reference}}, options);
  }
  void expect_healthy() {
    const Measurement m = run(vector_add("add", 5000, 9));
    EXPECT_EQ(m.status, MeasureStatus::Ok) << m.message;
  }
};

TEST_F(MeasurerDevice, VectorAddVerifiesAndTimes) {
  const Measurement m = run(vector_add("add", 100000));
  ASSERT_EQ(m.status, MeasureStatus::Ok) << m.message;
  RecordProperty("median_us", std::to_string(m.median_us));
  RecordProperty("runs", m.count);
  EXPECT_GT(m.median_us, 0);
  EXPECT_LT(m.median_us, 10000);
  EXPECT_GE(m.iqr_us, 0);
  EXPECT_GE(m.count, quick().min_runs);
  EXPECT_LE(m.count, quick().max_runs);
  EXPECT_LE(m.max_rel_error, std::ldexp(1.0, -24));  // one float rounding, relative to at most |c_i|
}

TEST_F(MeasurerDevice, WrongValueFailsVerification) {
  const Measurement m = run(vector_add("add_wrong", 1000));
  EXPECT_EQ(m.status, MeasureStatus::VerifyFailed);
  EXPECT_NE(m.message.find("element 77"), std::string::npos) << m.message;
  EXPECT_EQ(m.count, 0);  // never timed
}

TEST_F(MeasurerDevice, UnwrittenElementFailsThroughNanPoison) {
  const Measurement m = run(vector_add("add_skipping", 1000));
  EXPECT_EQ(m.status, MeasureStatus::VerifyFailed);
  EXPECT_NE(m.message.find("element 123"), std::string::npos) << m.message;
  EXPECT_NE(m.message.find("did not write it"), std::string::npos) << m.message;
}

TEST_F(MeasurerDevice, FaultCostsOneConfigurationOnly) {
  const Measurement m = run(vector_add("add_faulting", 1000));
  EXPECT_EQ(m.status, MeasureStatus::Fault);
  EXPECT_NE(m.message.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << m.message;
  expect_healthy();
}

TEST_F(MeasurerDevice, HangTimesOutAndTheNextMeasurementRecovers) {
  MeasureOptions options = quick();
  options.kernel_timeout_s = 2;
  const auto start = std::chrono::steady_clock::now();
  const Measurement m = run(vector_add("add_forever", 1000), options);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(m.status, MeasureStatus::Timeout) << m.message;
  EXPECT_GE(waited, 2.0);
  EXPECT_LT(waited, 20.0);
  expect_healthy();
}

TEST_F(MeasurerDevice, TooManyThreadsIsALaunchErrorAndHarmless) {
  VectorAdd v = vector_add("add", 4096);
  v.plan.steps[0].block = {2048, 1, 1};
  v.plan.steps[0].grid = {2, 1, 1};
  const Measurement m = run(v);
  EXPECT_EQ(m.status, MeasureStatus::LaunchError);
  EXPECT_NE(m.message.find("2048"), std::string::npos) << m.message;
  expect_healthy();
}

TEST_F(MeasurerDevice, LargeDynamicSharedMemoryIsAllowed) {
  VectorAdd v = vector_add("add_through_shared", 20000);
  v.plan.steps[0].shared_bytes = 100 * 1024;  // above the 48 KB default
  const Measurement m = run(v);
  EXPECT_EQ(m.status, MeasureStatus::Ok) << m.message;
}

// The output is poisoned before the verified run, never zeroed: a kernel that adds into it
// needs a launch of its own that zeroes it first, which is timed with it. Without that launch
// the same plan fails verification.
TEST_F(MeasurerDevice, AccumulatingKernelsZeroTheirOutputInALaunchOfTheirOwn) {
  const int n = 4096;
  std::vector<float> a(n);
  std::vector<double> reference(4, 0.0);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 13) * 0.5f;  // small integers and halves: exact float sums
    reference[i % 4] += a[i];
  }
  LaunchPlan plan;
  plan.buffers = {input_buffer("a", a), {"c", {}, 4 * sizeof(float)}};
  plan.outputs = {{"c", 4, Dtype::F32}};
  plan.steps = {launch("accumulate", {n / 256, 1, 1}, {256, 1, 1},
                       {KernelArg::of_buffer("a"), KernelArg::of_buffer("c"), KernelArg::of_scalar(int32_t{n})})};
  EXPECT_EQ(measurer().measure(kernels(), plan, Reference{{"c", reference}}, quick()).status, MeasureStatus::VerifyFailed);
  plan.steps.insert(plan.steps.begin(),
                    launch("zero", {1, 1, 1}, {32, 1, 1}, {KernelArg::of_buffer("c"), KernelArg::of_scalar(int32_t{4})}));
  const Measurement m = measurer().measure(kernels(), plan, Reference{{"c", reference}}, quick());
  EXPECT_EQ(m.status, MeasureStatus::Ok) << m.message;
}

TEST_F(MeasurerDevice, TemplateEntriesAndWideScalarsReachTheKernel) {
  const int64_t n = 3000;
  std::vector<double> x(n);
  std::vector<double> reference(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = 1.0 + static_cast<double>(i) / 7.0;
    reference[i] = 0.1 * x[i];
  }
  LaunchPlan plan;
  plan.buffers = {input_buffer("x", x), {"y", {}, n * sizeof(double)}};
  plan.outputs = {{"y", static_cast<size_t>(n), Dtype::F64}};
  plan.steps = {launch("scale<double>", {static_cast<uint32_t>((n + 127) / 128), 1, 1}, {128, 1, 1},
                       {KernelArg::of_scalar(0.1), KernelArg::of_buffer("x"), KernelArg::of_buffer("y"),
                        KernelArg::of_scalar(int64_t{n})})};
  const Measurement m = measurer().measure(kernels(), plan, Reference{{"y", reference}}, quick());
  EXPECT_EQ(m.status, MeasureStatus::Ok) << m.message;
}

TEST_F(MeasurerDevice, HotTimingIsNotSlowerThanFlushed) {
  // 3 x 8 MB fits in the L2 of any recent GPU: hot runs find it there, flushed ones do not.
  const VectorAdd v = vector_add("add", 2 << 20);
  MeasureOptions cold = quick();
  cold.max_seconds = 1.0;
  MeasureOptions hot = cold;
  hot.hot = true;
  const Measurement flushed = run(v, cold);
  const Measurement warm = run(v, hot);
  ASSERT_EQ(flushed.status, MeasureStatus::Ok) << flushed.message;
  ASSERT_EQ(warm.status, MeasureStatus::Ok) << warm.message;
  RecordProperty("hot_us", std::to_string(warm.median_us));
  RecordProperty("flushed_us", std::to_string(flushed.median_us));
  EXPECT_LE(warm.median_us, flushed.median_us * 1.05) << "hot " << warm.median_us << " us, flushed "
                                                      << flushed.median_us << " us";
}

TEST_F(MeasurerDevice, CopyBandwidthIsPlausible) {
  const double gbs = measurer().device_copy_bandwidth_gbs(size_t{256} << 20);
  RecordProperty("gbs", std::to_string(gbs));
  EXPECT_GT(gbs, 100);    // any datacenter GPU of the last decade
  EXPECT_LT(gbs, 20000);  // beyond HBM of today: the timing is wrong
}

}  // namespace
}  // namespace ktune
