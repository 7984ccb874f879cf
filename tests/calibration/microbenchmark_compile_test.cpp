// The suite's kernels through NVRTC (no GPU needed): they compile for every architecture we
// target, each chain survives optimisation with all its operations, and the stream kernels fit
// the occupancy their per-SM unit counts assume.
#include <gtest/gtest.h>

#include <string>

#include "gpu/nvrtc_compiler.h"
#include "model/calibration/microbenchmarks.h"

namespace ktune {
namespace {

// The PTX of one entry: from its .entry line to the next one.
std::string ptx_of(const std::string& ptx, const std::string& entry) {
  const size_t begin = ptx.find(".entry " + entry + "(");
  if (begin == std::string::npos) return "";
  const size_t end = ptx.find(".entry ", begin + 1);
  return ptx.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class SuiteCompile : public ::testing::TestWithParam<const char*> {};

TEST_P(SuiteCompile, EveryChainSurvives) {
  const CompiledKernel k = NvrtcCompiler().compile(microbenchmark_compile_request(GetParam()));
  ASSERT_TRUE(k.ok) << k.log;
  const std::pair<const char*, const char*> chains[] = {
      {"kt_int_chain", "xor.b32"},          {"kt_fp32_chain", "fma.rn.f32"},
      {"kt_fp64_chain", "fma.rn.f64"},      {"kt_sfu_chain", "rsqrt.approx.ftz.f32"},
      {"kt_shuffle_chain", "shfl.sync"},    {"kt_shared_chain", "ld.shared"},
      {"kt_atomic_chain", "atom.global"},   {"kt_barrier_chain", "bar"},
      {"kt_chase_l1", "ld.global.ca"},        {"kt_chase_cg", "ld.global.cg"},
      {"kt_shared_stream", "ld.volatile.shared"}, {"kt_atomic_stream", "atom.global"},
      {"kt_atomic_same_stream", "atom.global"}};
  for (const auto& [entry, op] : chains) {
    const std::string body = ptx_of(k.ptx, entry);
    ASSERT_FALSE(body.empty()) << entry << " is missing from the PTX";
    EXPECT_GE(count(body, op), 16) << entry << ": fewer than 16 '" << op << "' per iteration survived";
  }
  const std::pair<const char*, const char*> reads[] = {
      {"kt_read_l1", "ld.global.ca.v4"}, {"kt_read_l2", "ld.global.cg.v4"}, {"kt_read_dram", "ld.global.cs.v4"}};
  for (const auto& [entry, op] : reads) EXPECT_GE(count(ptx_of(k.ptx, entry), op), 8) << entry;
  for (const char* entry : {"kt_fp32_stream", "kt_int_stream", "kt_fp64_stream", "kt_sfu_stream",
                            "kt_shuffle_stream", "kt_issue_stream"}) {
    const std::string body = ptx_of(k.ptx, entry);
    EXPECT_GE(count(body, "fma.rn.f") + count(body, "xor.b32") + count(body, "rsqrt") + count(body, "shfl.sync"), 32)
        << entry;
  }
  // 4 blocks of 256 threads per SM for the streams, 8 for the barrier and branch streams.
  for (const auto& [entry, usage] : k.usage) {
    const int limit = std::string(entry) == "kt_barrier_stream" || std::string(entry) == "kt_branch_loop" ? 32 : 64;
    EXPECT_LE(usage.registers, limit) << entry;
    EXPECT_EQ(usage.spill_stores, 0) << entry;
  }
}

INSTANTIATE_TEST_SUITE_P(Architectures, SuiteCompile, ::testing::Values("sm_80", "sm_90"));

}  // namespace
}  // namespace ktune
