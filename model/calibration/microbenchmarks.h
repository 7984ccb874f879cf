#pragma once
// The calibration suite: which kernel of kernels/calibration/calibration_benchmarks.cu runs
// how, at which two lengths, and how much work a length is (model/calibration/slope.h turns
// the two timings into cycles per unit of work).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu/compiled_kernel.h"
#include "kernels/kernel_family.h"

namespace ktune {

struct Microbenchmark {
  std::string name;    // "fp32_latency", "dram_gap", "clock", ...
  std::string entry;   // the kernel it times (the last launch step)
  int64_t lengths[2];  // the kernel's `n` at the two runs
  std::function<LaunchPlan(int64_t n)> plan;
  // Work done at length n: dependent operations (latency benchmarks), warp instructions or
  // 32-byte sectors per SM (gap benchmarks), clock cycles (the clock benchmark).
  std::function<double(int64_t n)> units;
};

// The suite for a device with `sms` SMs; the clock benchmark comes first, since every other
// result is converted to cycles with the clock it measures. Throws InputError for sms < 1.
std::vector<Microbenchmark> microbenchmarks(int sms);

// The one NVRTC compile every benchmark of the suite shares.
CompileRequest microbenchmark_compile_request(const std::string& arch);

}  // namespace ktune
