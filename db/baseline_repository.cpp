#include "db/baseline_repository.h"

#include "db/record_rows.h"

namespace ktune {

int64_t BaselineRepository::add(const BaselineRecord& baseline) {
  return db_.write([&](SQLite::Database& c) {
    execute(c,
            "INSERT INTO baselines (workload_id, device_id, kernel, dtype, vendor, median_us,"
            " iqr_us, count) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            baseline.workload_id, baseline.device_id, baseline.kernel, baseline.dtype,
            baseline.vendor, baseline.median_us, baseline.iqr_us, baseline.count);
    return c.getLastInsertRowid();
  });
}

std::vector<BaselineRecord> BaselineRepository::list_for(int64_t workload_id, int64_t device_id,
                                                         const std::string& kernel,
                                                         const std::string& dtype) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + baseline_columns("b") +
                               " FROM baselines b WHERE b.workload_id = ?1 AND b.device_id = ?2"
                               " AND b.kernel = ?3 AND b.dtype = ?4 ORDER BY b.median_us, b.id");
    bind_all(q, workload_id, device_id, kernel, dtype);
    return read_all(q, read_baseline);
  });
}

}  // namespace ktune
