#pragma once
// What the GPU tests share: one Measurer (starting a worker costs a second or two) and
// NVRTC compilation of hand-written kernels.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/measurer.h"
#include "gpu/nvrtc_compiler.h"
#include "kernels/device_buffers.h"

namespace ktune {

// KTUNE_MEASURE_WORKER in the environment overrides the build's worker, for binaries run
// away from their build tree.
inline Measurer& shared_measurer() {
  static Measurer measurer(std::getenv("KTUNE_MEASURE_WORKER") ? std::getenv("KTUNE_MEASURE_WORKER")
                                                                 : KTUNE_MEASURE_WORKER);
  return measurer;
}

inline CompiledKernel compile_for_device(const std::string& code, const std::vector<std::string>& entries) {
  CompiledKernel k = NvrtcCompiler{}.compile(CompileRequest{code, entries, {}, shared_measurer().device().arch()});
  EXPECT_TRUE(k.ok) << k.log;
  return k;
}

// Skips the test without a GPU.
class DeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!shared_measurer().available()) GTEST_SKIP() << "no GPU: " << shared_measurer().device().why_absent;
  }
  Measurer& measurer() { return shared_measurer(); }
};

}  // namespace ktune
