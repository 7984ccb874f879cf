#pragma once
// Devices by fingerprint (a driver, compiler or template change makes a new one), with their
// model calibration.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class DeviceRepository {
 public:
  explicit DeviceRepository(Database& db) : db_(db) {}

  // Inserts the device, or refreshes name and details of the one with this fingerprint (its
  // calibration stays); returns its id either way.
  int64_t upsert(const std::string& fingerprint, const std::string& name,
                 const nlohmann::json& details);
  std::optional<DeviceRecord> get(int64_t id);
  // Returns false when no device has this id.
  bool set_calibration(int64_t id, const nlohmann::json& calibration);
  std::optional<nlohmann::json> get_calibration(int64_t id);
  std::vector<DeviceRecord> list();

 private:
  Database& db_;
};

}  // namespace ktune
