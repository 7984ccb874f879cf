#include "model/gpu_spec.h"

#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr int kKiB = 1024;
constexpr int64_t kMiB = 1024 * 1024;

// A100 SXM4 80 GB: HBM2e at 2.04 TB/s peak, of which about 90% is reachable by a copy.
GpuSpec ampere_a100() {
  GpuSpec s;
  s.arch = "sm_80";
  s.sms = 108;
  s.max_threads_per_sm = 2048;
  s.max_warps_per_sm = 64;
  s.max_blocks_per_sm = 32;
  s.max_threads_per_block = 1024;
  s.registers_per_sm = 65536;
  s.max_registers_per_thread = 255;
  s.register_alloc_unit = 256;
  s.register_partitions = 4;
  s.shared_per_sm = 164 * kKiB;
  s.max_shared_per_block = 163 * kKiB;
  s.reserved_shared_per_block = 1 * kKiB;
  s.shared_alloc_unit = 128;
  s.l2_bytes = 40 * kMiB;
  s.dram_bandwidth_gbs = 1.8e3;
  s.dram_latency_ns = 500;
  s.clock_ghz = 1.41;
  s.launch_overhead_us = 3.0;
  return s;
}

// H100 SXM5 (HBM3, 3.35 TB/s peak); an H200 shares the limits and has more of the figures
// (4.8 TB/s, 60 MB L2 enabled), which calibration picks up on the device.
GpuSpec hopper_h100() {
  GpuSpec s;
  s.arch = "sm_90";
  s.sms = 132;
  s.max_threads_per_sm = 2048;
  s.max_warps_per_sm = 64;
  s.max_blocks_per_sm = 32;
  s.max_threads_per_block = 1024;
  s.registers_per_sm = 65536;
  s.max_registers_per_thread = 255;
  s.register_alloc_unit = 256;
  s.register_partitions = 4;
  s.shared_per_sm = 228 * kKiB;
  s.max_shared_per_block = 227 * kKiB;
  s.reserved_shared_per_block = 1 * kKiB;
  s.shared_alloc_unit = 128;
  s.l2_bytes = 50 * kMiB;
  s.dram_bandwidth_gbs = 3.0e3;
  s.dram_latency_ns = 500;
  s.clock_ghz = 1.98;
  s.launch_overhead_us = 2.5;
  return s;
}

}  // namespace

GpuSpec spec_for_arch(const std::string& arch) {
  if (arch == "sm_80") return ampere_a100();
  if (arch == "sm_90") return hopper_h100();
  throw InputError("unknown GPU architecture '" + arch + "'; known: sm_80, sm_90");
}

}  // namespace ktune
