#pragma once
// The GPU the client launches on: the driver (loaded at run time, gpu/cuda_driver.h), the
// device's primary context, which the CUDA runtime shares (the caller's cudaMalloc buffers
// live there), and the device's architecture for NVRTC.
#include <memory>

#include "gpu/cuda_resources.h"
#include "gpu/device_info.h"

namespace ktune {

class DeviceSession {
 public:
  // LaunchError (ktune/tuned_kernel.h) saying why when there is no driver or no such device.
  explicit DeviceSession(int ordinal);

  // Makes the context current on the calling thread, which may be another than the last
  // launch's, or hold a context of its own.
  void make_current() const;

  const CudaDriver& cu() const { return *cu_; }
  const DeviceInfo& info() const { return info_; }

 private:
  const CudaDriver* cu_ = nullptr;
  DeviceInfo info_;
  std::unique_ptr<PrimaryContext> context_;
};

}  // namespace ktune
