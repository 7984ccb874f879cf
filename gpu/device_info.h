#pragma once
// What the daemon knows of the GPU it measures on, and the fingerprint that keys stored
// results to it (DESIGN.md, "Signatures").
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ktune {

struct DeviceInfo {
  bool present = false;
  std::string why_absent;  // set when !present: no driver, no device, worker missing...
  std::string name;
  // Without a device these name the architecture a model-only daemon targets: Hopper.
  int cc_major = 9, cc_minor = 0;
  int sms = 0;
  int64_t l2_bytes = 0;
  int64_t memory_bytes = 0;
  int driver_version = 0;  // e.g. 13000 for CUDA 13.0
  int64_t max_shared_per_block_optin = 0;
  int clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_width = 0;  // bits

  std::string arch() const;  // "sm_90"
  nlohmann::json to_json() const;
  static DeviceInfo from_json(const nlohmann::json& j);
};

// Reads the device through the driver API in this process; present=false (never a crash)
// without a driver or without device `ordinal`.
DeviceInfo probe_device(int ordinal = 0);

// Stored results are valid for one (device, compiler, templates) triple. With a device: the
// SHA-256 hex of name, compute capability, SMs, L2, driver, NVRTC version and templates hash.
// Without one: "model-only sm_90 " followed by 16 hex digits of the compiler and templates
// hash, since predictions depend on those and on the target architecture only.
std::string device_fingerprint(const DeviceInfo& device, const std::string& nvrtc_version,
                               const std::string& templates_hash);

}  // namespace ktune
