#include "gpu/ptxas_info.h"

#include <gtest/gtest.h>

#include "gpu/nvrtc_compiler.h"

namespace ktune {
namespace {

// Real logs are produced here at run time, so the parser is checked against what the
// linked NVRTC prints today, not against a copy of what it once printed.
CompiledKernel compile(const std::string& code, std::vector<std::string> entries,
                       std::vector<std::string> options = {}, std::string arch = "sm_90") {
  CompiledKernel k = NvrtcCompiler().compile({code, std::move(entries), std::move(options), arch});
  EXPECT_TRUE(k.ok) << k.log;
  return k;
}

TEST(PtxasInfo, RealLogGivesEveryEntryItsSharedMemory) {
  const std::string code = R"(
extern "C" __global__ void small(float* y) {
  __shared__ float s[64];
  s[threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = s[63 - threadIdx.x];
}
extern "C" __global__ void large(double* y) {
  __shared__ double s[1000];
  s[threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = s[999 - threadIdx.x];
}
extern "C" __global__ void none(float* y) { y[threadIdx.x] *= 2.0f; }
)";
  const auto usage = parse_ptxas_info(compile(code, {"small", "large", "none"}).log);
  ASSERT_EQ(usage.size(), 3u);
  EXPECT_EQ(usage.at("small").shared_bytes, 64 * 4);
  EXPECT_EQ(usage.at("large").shared_bytes, 1000 * 8);
  EXPECT_EQ(usage.at("none").shared_bytes, 0);
  for (const auto& [name, u] : usage) {
    EXPECT_GT(u.registers, 0) << name;
    EXPECT_EQ(u.spill_stores, 0) << name;
  }
}

TEST(PtxasInfo, RealLogShowsSpillsUnderARegisterCap) {
  const std::string code = R"(
extern "C" __global__ void pressure(const float* a, float* y) {
  float v[48];
#pragma unroll
  for (int k = 0; k < 48; ++k) v[k] = a[threadIdx.x * 48 + k];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 48; ++k) s += v[k] * v[47 - k] * v[(k * 5) % 48];
  y[threadIdx.x] = s;
}
)";
  const auto usage = parse_ptxas_info(compile(code, {"pressure"}, {"--maxrregcount=24"}).log);
  const ResourceUsage& u = usage.at("pressure");
  EXPECT_LE(u.registers, 24);
  EXPECT_GT(u.spill_stores, 0);
  EXPECT_GT(u.spill_loads, 0);
  EXPECT_GT(u.stack_bytes, 0);  // spilled values live in the stack frame
}

TEST(PtxasInfo, RealSm80LogCarriesConstantBank) {
  const std::string code =
      "extern \"C\" __global__ void axpy(float* y, const float* x, float a, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) y[i] += a * x[i];\n"
      "}\n";
  const auto usage = parse_ptxas_info(compile(code, {"axpy"}, {}, "sm_80").log);
  // Kernel parameters live in constant bank 0: at least the 24 bytes of these four.
  EXPECT_GE(usage.at("axpy").constant_bytes, 24);
}

TEST(PtxasInfo, LiteralLogWithEveryItem) {
  const std::string log =
      "ptxas info    : 0 bytes gmem, 400 bytes cmem[3]\n"
      "ptxas info    : Compiling entry function 'spmv' for 'sm_90'\n"
      "ptxas info    : Function properties for spmv\n"
      "    16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 28 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0], "
      "4 bytes cmem[2]\n"
      "ptxas info    : Compile time = 1.0 ms\n";
  const auto usage = parse_ptxas_info(log);
  ASSERT_EQ(usage.size(), 1u);
  const ResourceUsage& u = usage.at("spmv");
  EXPECT_EQ(u.registers, 28);
  EXPECT_EQ(u.shared_bytes, 2048);
  EXPECT_EQ(u.constant_bytes, 384);  // the module-wide cmem[3] on the gmem line is not the kernel's
  EXPECT_EQ(u.stack_bytes, 16);
  EXPECT_EQ(u.spill_stores, 8);
  EXPECT_EQ(u.spill_loads, 12);
}

TEST(PtxasInfo, DeviceFunctionPropertiesDoNotLeakIntoEntries) {
  // As printed for -rdc=true: a device function's frame between two entries.
  const std::string log =
      "ptxas info    : Compiling entry function 'first' for 'sm_90'\n"
      "ptxas info    : Function properties for first\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 14 registers, used 0 barriers\n"
      "ptxas info    : Function properties for _Z6helperf\n"
      "ptxas         .     168 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'second' for 'sm_90'\n"
      "ptxas info    : Function properties for second\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 0 barriers, 160 bytes cumulative stack size\n";
  const auto usage = parse_ptxas_info(log);
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_EQ(usage.count("_Z6helperf"), 0u);
  EXPECT_EQ(usage.at("first").registers, 14);
  EXPECT_EQ(usage.at("first").stack_bytes, 0);
  EXPECT_EQ(usage.at("first").spill_stores, 0);
  EXPECT_EQ(usage.at("second").registers, 32);
  EXPECT_EQ(usage.at("second").stack_bytes, 160);  // the callee's frames count
}

TEST(PtxasInfo, EmptyOrForeignLogGivesNothing) {
  EXPECT_TRUE(parse_ptxas_info("").empty());
  EXPECT_TRUE(parse_ptxas_info("ktune_kernel.cu(3): error: expected a \";\"\n").empty());
}

}  // namespace
}  // namespace ktune
