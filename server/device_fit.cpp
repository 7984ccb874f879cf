#include "server/device_fit.h"

#include <cstdio>

#include "workload/input_error.h"

namespace ktune {

void check_fits_device(const KernelFamily& family, const Workload& w, const Problem& p, const DeviceInfo& device) {
  if (!device.present || device.memory_bytes <= 0) return;
  const double needed = family.min_bytes(w, p);
  const double allowed = kDeviceMemoryShare * static_cast<double>(device.memory_bytes);
  if (needed <= allowed) return;
  char text[256];
  std::snprintf(text, sizeof text,
                "the problem needs at least %.2f GB on the device for its operands and outputs; %s has %.2f GB, "
                "of which ktune uses up to %.0f%%",
                needed / 1e9, device.name.c_str(), static_cast<double>(device.memory_bytes) / 1e9,
                100 * kDeviceMemoryShare);
  throw LimitError(text);
}

}  // namespace ktune
