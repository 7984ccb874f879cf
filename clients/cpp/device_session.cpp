#include "clients/cpp/device_session.h"

#include "ktune/tuned_kernel.h"

namespace ktune {

DeviceSession::DeviceSession(int ordinal) {
  info_ = probe_device(ordinal);
  if (!info_.present) throw LaunchError("cannot launch: no GPU (" + info_.why_absent + ")");
  cu_ = CudaDriver::load();
  try {
    CUdevice device = 0;
    cu_->check(cu_->device_get(&device, ordinal), "opening CUDA device " + std::to_string(ordinal));
    context_ = std::make_unique<PrimaryContext>(*cu_, device);
  } catch (const CudaError& e) {
    throw LaunchError(std::string("cannot launch: ") + e.what());
  }
}

void DeviceSession::make_current() const {
  cu_->check(cu_->ctx_set_current(context_->get()), "making the device context current");
}

}  // namespace ktune
