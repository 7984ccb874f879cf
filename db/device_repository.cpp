#include "db/device_repository.h"

#include "db/record_rows.h"

namespace ktune {

int64_t DeviceRepository::upsert(const std::string& fingerprint, const std::string& name,
                                 const nlohmann::json& details) {
  return db_.write([&](SQLite::Database& c) {
    execute(c,
            "INSERT INTO devices (fingerprint, name, details) VALUES (?1, ?2, ?3)"
            " ON CONFLICT (fingerprint) DO UPDATE SET name = excluded.name,"
            " details = excluded.details",
            fingerprint, name, details);
    return query_int64(c, "SELECT id FROM devices WHERE fingerprint = ?1", fingerprint);
  });
}

std::optional<DeviceRecord> DeviceRepository::get(int64_t id) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + device_columns("d") + " FROM devices d WHERE d.id = ?1");
    bind_all(q, id);
    return read_first(q, read_device);
  });
}

bool DeviceRepository::set_calibration(int64_t id, const nlohmann::json& calibration) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c, "UPDATE devices SET calibration = ?2 WHERE id = ?1", id, calibration) > 0;
  });
}

std::optional<nlohmann::json> DeviceRepository::get_calibration(int64_t id) {
  std::optional<DeviceRecord> device = get(id);
  return device ? device->calibration : std::nullopt;
}

std::vector<DeviceRecord> DeviceRepository::list() {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + device_columns("d") + " FROM devices d ORDER BY d.id");
    return read_all(q, read_device);
  });
}

}  // namespace ktune
