#pragma once
// Per-GPU calibration in the daemon (issue 4, part 2): POST /v1/devices/{id}/calibrate runs the
// suite of model/calibration on this daemon's GPU through its measurement worker and stores
// the result with the device; at start the service predicts with the stored table. The routes'
// Service methods (device, calibrate) are defined in device_calibration.cpp.
#include <optional>

#include "db/database.h"
#include "gpu/device_info.h"
#include "model/calibration/calibration.h"

namespace ktune {

struct ServiceParts;

// The calibration stored for this daemon's device: its own, or else the latest one stored for
// a device with the same hardware (name, compute capability, SMs, clock): a new driver, NVRTC
// or template set makes a new fingerprint, not a new GPU. nullopt when there is none.
std::optional<Calibration> stored_calibration(Database& db, int64_t device_id, const DeviceInfo& device);

// `current` with `calibration` applied: what the tuner predicts with once a calibration that
// ran while the daemon runs is stored (Tuner::set_gpu).
GpuSpec calibrated_spec(const GpuSpec& current, const Calibration& calibration);

// Gives p.gpu the stored calibration of p's device, if any (before the tuner copies p.gpu).
void use_stored_calibration(ServiceParts& p);

}  // namespace ktune
