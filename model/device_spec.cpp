#include "model/device_spec.h"

namespace ktune {

// HBM sustains about 90% of its datasheet rate in a copy (4.27 of 4.8 TB/s measured on an H200).
constexpr double kSustainedDramFraction = 0.9;

GpuSpec spec_for_device(const DeviceInfo& device, const std::string& arch_override) {
  GpuSpec spec = spec_for_arch(!arch_override.empty() ? arch_override : device.present ? device.arch() : "sm_90");
  if (!device.present) return spec;
  if (device.sms > 0) spec.sms = device.sms;
  if (device.l2_bytes > 0) spec.l2_bytes = device.l2_bytes;
  if (device.clock_khz > 0) spec.clock_ghz = device.clock_khz / 1e6;
  if (device.max_shared_per_block_optin > 0) {
    spec.max_shared_per_block = static_cast<int>(device.max_shared_per_block_optin);
  }
  if (device.memory_clock_khz > 0 && device.memory_bus_width > 0) {
    // Double data rate: two transfers per memory clock over the bus.
    const double peak_gbs = 2.0 * device.memory_clock_khz * 1e3 * (device.memory_bus_width / 8.0) / 1e9;
    spec.dram_bandwidth_gbs = kSustainedDramFraction * peak_gbs;
  }
  return spec;
}

}  // namespace ktune
