#pragma once
// Answers stored before families versioned their own templates: the device fingerprint then
// hashed every template of the build, so a row's device names both the GPU and the templates
// it was tuned with. Where that fingerprint is what this daemon would have computed for its
// GPU with today's templates, those answers are still right: they move to today's device row
// with their family's version. Run once at each start; a no-op once nothing is left to move.
#include <string>

#include "db/database.h"
#include "gpu/device_info.h"

namespace ktune {

// The fingerprint a ktune before family versions gave `device`.
std::string legacy_fingerprint(const DeviceInfo& device, const std::string& nvrtc_version);

// Returns how many answers were moved.
int adopt_legacy_answers(Database& db, const DeviceInfo& device, const std::string& nvrtc_version, int64_t device_id);

}  // namespace ktune
