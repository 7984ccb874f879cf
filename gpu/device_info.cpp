#include "gpu/device_info.h"

#include <array>

#include "gpu/cuda_driver.h"
#include "workload/sha256.h"

namespace ktune {

std::string DeviceInfo::arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }

nlohmann::json DeviceInfo::to_json() const {
  nlohmann::json j = {{"present", present},
                      {"name", name},
                      {"arch", arch()},
                      {"cc_major", cc_major},
                      {"cc_minor", cc_minor},
                      {"sms", sms},
                      {"l2_bytes", l2_bytes},
                      {"memory_bytes", memory_bytes},
                      {"driver_version", driver_version},
                      {"max_shared_per_block_optin", max_shared_per_block_optin},
                      {"clock_khz", clock_khz},
                      {"memory_clock_khz", memory_clock_khz},
                      {"memory_bus_width", memory_bus_width}};
  if (!present) j["why_absent"] = why_absent;
  return j;
}

DeviceInfo DeviceInfo::from_json(const nlohmann::json& j) {
  DeviceInfo d;
  d.present = j.at("present").get<bool>();
  d.why_absent = j.value("why_absent", "");
  d.name = j.at("name").get<std::string>();
  d.cc_major = j.at("cc_major").get<int>();
  d.cc_minor = j.at("cc_minor").get<int>();
  d.sms = j.at("sms").get<int>();
  d.l2_bytes = j.at("l2_bytes").get<int64_t>();
  d.memory_bytes = j.at("memory_bytes").get<int64_t>();
  d.driver_version = j.at("driver_version").get<int>();
  d.max_shared_per_block_optin = j.at("max_shared_per_block_optin").get<int64_t>();
  d.clock_khz = j.at("clock_khz").get<int>();
  d.memory_clock_khz = j.at("memory_clock_khz").get<int>();
  d.memory_bus_width = j.at("memory_bus_width").get<int>();
  return d;
}

DeviceInfo probe_device(int ordinal) {
  DeviceInfo info;
  const CudaDriver* cu = CudaDriver::load(&info.why_absent);
  if (!cu) return info;
  try {
    int count = 0;
    cu->check(cu->device_get_count(&count), "counting CUDA devices");
    if (ordinal < 0 || ordinal >= count) {
      info.why_absent = "no CUDA device " + std::to_string(ordinal) + " (the driver sees " + std::to_string(count) + ")";
      return info;
    }
    CUdevice device = 0;
    cu->check(cu->device_get(&device, ordinal), "opening CUDA device " + std::to_string(ordinal));
    std::array<char, 256> name{};
    cu->check(cu->device_get_name(name.data(), static_cast<int>(name.size()), device), "reading the device name");
    info.name = name.data();
    auto attribute = [&](CUdevice_attribute a, const char* what) {
      int value = 0;
      cu->check(cu->device_get_attribute(&value, a, device), std::string("reading the device's ") + what);
      return value;
    };
    info.cc_major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability");
    info.cc_minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability");
    info.sms = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count");
    info.l2_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 size");
    info.max_shared_per_block_optin =
        attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "opt-in shared memory");
    info.clock_khz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "clock rate");
    info.memory_clock_khz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "memory clock rate");
    info.memory_bus_width = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "memory bus width");
    size_t memory = 0;
    cu->check(cu->device_total_mem(&memory, device), "reading the device memory size");
    info.memory_bytes = static_cast<int64_t>(memory);
    cu->check(cu->driver_get_version(&info.driver_version), "reading the driver version");
    info.present = true;
  } catch (const CudaError& e) {
    info.why_absent = e.what();
  }
  return info;
}

std::string device_fingerprint(const DeviceInfo& device, const std::string& nvrtc_version,
                               const std::string& templates_hash) {
  const std::string toolchain = "nvrtc " + nvrtc_version + "\ntemplates " + templates_hash;
  if (!device.present) return "model-only " + device.arch() + " " + sha256_hex(toolchain).substr(0, 16);
  return sha256_hex("name " + device.name + "\narch " + device.arch() + "\nsms " + std::to_string(device.sms) +
                    "\nl2 " + std::to_string(device.l2_bytes) + "\ndriver " + std::to_string(device.driver_version) +
                    "\n" + toolchain);
}

}  // namespace ktune
