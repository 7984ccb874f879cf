#include "gpu/nvrtc_compiler.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace ktune {
namespace {

const char* const kStaged = R"(
extern "C" __global__ void staged(const float* in, float* out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = tile[(threadIdx.x + 1) % 256] * 2.0f;
}
)";

CompileRequest staged_request(std::string arch = "sm_90") {
  return {kStaged, {"staged"}, {}, std::move(arch)};
}

TEST(NvrtcCompiler, CompilesToCubinWithResourceUsage) {
  const CompiledKernel k = NvrtcCompiler().compile(staged_request());
  ASSERT_TRUE(k.ok) << k.log;
  ASSERT_GE(k.cubin.size(), 4u);
  EXPECT_EQ(k.cubin.substr(0, 4), std::string("\x7f" "ELF"));
  EXPECT_NE(k.ptx.find(".target sm_90"), std::string::npos);
  EXPECT_EQ(k.lowered_names.at("staged"), "staged");  // extern "C": not mangled
  const ResourceUsage& usage = k.usage.at("staged");
  EXPECT_GT(usage.registers, 0);
  EXPECT_EQ(usage.shared_bytes, 256 * static_cast<int>(sizeof(float)));
  EXPECT_EQ(k.key, NvrtcCompiler::cache_key(staged_request()));
  EXPECT_GT(k.compile_seconds, 0);
}

// NVRTC's own compilation cache (12.9 and later) would serve the second compile without running
// ptxas, and so without its resource report; the compiler turns that cache off.
TEST(NvrtcCompiler, ARepeatedCompileStillReportsResourceUsage) {
  for (int i = 0; i < 3; ++i) {
    const CompiledKernel k = NvrtcCompiler().compile(staged_request());
    ASSERT_TRUE(k.ok) << k.log;
    ASSERT_EQ(k.usage.count("staged"), 1u) << "compile " << i << " log:\n" << k.log;
    EXPECT_GT(k.usage.at("staged").registers, 0);
  }
}

// The tuner compiles on a thread pool as wide as the machine: every compile must still read
// its own entries' registers and shared memory from its own log.
TEST(NvrtcCompiler, ConcurrentCompilesEachReportTheirResourceUsage) {
  const NvrtcCompiler compiler;
  constexpr int kThreads = 16;
  std::vector<CompiledKernel> out(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      // A distinct program per thread (no cache in the way), two entries each.
      const std::string code = std::string(kStaged) + "extern \"C\" __global__ void other" + std::to_string(t) +
                               "(float* p) { p[threadIdx.x] += " + std::to_string(t) + ".0f; }\n";
      out[t] = compiler.compile({code, {"staged", "other" + std::to_string(t)}, {}, "sm_90"});
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(out[t].ok) << out[t].log;
    EXPECT_EQ(out[t].usage.count("staged"), 1u) << "thread " << t << " log:\n" << out[t].log;
    EXPECT_EQ(out[t].usage.count("other" + std::to_string(t)), 1u) << "thread " << t << " log:\n" << out[t].log;
  }
}

TEST(NvrtcCompiler, VirtualArchitectureGivesPtxOnly) {
  const CompiledKernel k = NvrtcCompiler().compile(staged_request("compute_90"));
  ASSERT_TRUE(k.ok) << k.log;
  EXPECT_TRUE(k.cubin.empty());
  EXPECT_NE(k.ptx.find(".target sm_90"), std::string::npos);
}

TEST(NvrtcCompiler, SyntaxErrorReportsTheLine) {
  const std::string code =
      "extern \"C\" __global__ void broken(float* y) {\n"
      "  y[0] = 1.0f\n"
      "  y[1] = 2.0f;\n"
      "}\n";
  const CompiledKernel k = NvrtcCompiler().compile({code, {"broken"}, {}, "sm_90"});
  EXPECT_FALSE(k.ok);
  EXPECT_TRUE(k.cubin.empty());
  // The missing ';' is noticed where the next statement starts, on line 3.
  EXPECT_NE(k.log.find("(3): error"), std::string::npos) << k.log;
}

TEST(NvrtcCompiler, UnknownArchitectureIsACompileFailure) {
  const CompiledKernel k = NvrtcCompiler().compile(staged_request("sm_7"));
  EXPECT_FALSE(k.ok);
  EXPECT_NE(k.log.find("gpu-architecture"), std::string::npos) << k.log;
}

TEST(NvrtcCompiler, NameExpressionsLowerTemplateInstances) {
  const std::string code = R"(
template <int N>
__global__ void scale(float* y) {
  float acc = 0;
  for (int k = 0; k < N; ++k) acc += y[k * blockDim.x + threadIdx.x];
  y[threadIdx.x] = acc;
}
)";
  const CompiledKernel k =
      NvrtcCompiler().compile({code, {"scale<4>", "scale<8>"}, {}, "sm_90"});
  ASSERT_TRUE(k.ok) << k.log;
  const std::string four = k.lowered_names.at("scale<4>");
  const std::string eight = k.lowered_names.at("scale<8>");
  EXPECT_NE(four, eight);
  // Itanium mangling of a template argument 4 reads "Li4E".
  EXPECT_NE(four.find("Li4E"), std::string::npos) << four;
  EXPECT_NE(eight.find("Li8E"), std::string::npos) << eight;
  // The lowered names are the symbols the driver will look up in the CUBIN.
  EXPECT_NE(k.cubin.find(four), std::string::npos);
  EXPECT_NE(k.cubin.find(eight), std::string::npos);
  EXPECT_GT(k.usage.at("scale<4>").registers, 0);
  EXPECT_GT(k.usage.at("scale<8>").registers, 0);
}

TEST(NvrtcCompiler, VersionIsTheToolkitsNvrtc) {
  EXPECT_EQ(NvrtcCompiler::version(),
            std::to_string(CUDA_VERSION / 1000) + "." + std::to_string(CUDA_VERSION % 1000 / 10));
}

TEST(NvrtcCompiler, CacheKeyIsSha256HexOfEveryField) {
  const CompileRequest base{"code", {"a", "b"}, {"-DX=1"}, "sm_90"};
  const std::string key = NvrtcCompiler::cache_key(base);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_TRUE(std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  }));
  EXPECT_EQ(key, NvrtcCompiler::cache_key(base));

  auto differs = [&](CompileRequest changed) { return NvrtcCompiler::cache_key(changed) != key; };
  CompileRequest r = base;
  r.code = "code ";
  EXPECT_TRUE(differs(r));
  r = base;
  r.arch = "sm_80";
  EXPECT_TRUE(differs(r));
  r = base;
  r.options = {"-DX=2"};
  EXPECT_TRUE(differs(r));
  r = base;
  r.entries = {"b", "a"};
  EXPECT_TRUE(differs(r));
  // Framing: moving text between neighbouring fields must change the key.
  r = base;
  r.entries = {"ab"};
  EXPECT_TRUE(differs(r));
  r = base;
  r.entries = {"a"};
  r.options = {"b", "-DX=1"};
  EXPECT_TRUE(differs(r));
  r = base;
  r.code = "codesm_90";
  r.arch = "";
  EXPECT_TRUE(differs(r));
}

}  // namespace
}  // namespace ktune
