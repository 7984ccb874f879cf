#include "db/result_repository.h"

#include "db/record_rows.h"

namespace ktune {

int64_t ResultRepository::upsert(const ResultRecord& result) {
  return db_.write([&](SQLite::Database& c) {
    execute(
        c,
        std::string(
            "INSERT INTO results (workload_id, kernel, problem, dtype, device_id, kernel_version, config, answer,"
            " source, predicted_us, measured_us, vendor, provenance, job_id)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
            " ON CONFLICT (workload_id, kernel, problem, dtype, device_id) DO UPDATE SET"
            " kernel_version = excluded.kernel_version, config = excluded.config, answer = excluded.answer,"
            " source = excluded.source, predicted_us = excluded.predicted_us, measured_us = excluded.measured_us,"
            " vendor = excluded.vendor, provenance = excluded.provenance,"
            " job_id = excluded.job_id, updated_at = ") +
            kSqlNow,
        result.workload_id, result.kernel, result.problem, result.dtype, result.device_id, result.kernel_version,
        result.config, result.answer, to_string(result.source), result.predicted_us, result.measured_us,
        result.vendor, result.provenance, result.job_id);
    return query_int64(c,
                       "SELECT id FROM results WHERE workload_id = ?1 AND kernel = ?2"
                       " AND problem = ?3 AND dtype = ?4 AND device_id = ?5",
                       result.workload_id, result.kernel, result.problem, result.dtype, result.device_id);
  });
}

std::optional<ResultRecord> ResultRepository::get_exact(const std::string& signature, const std::string& kernel,
                                                        const std::string& problem, const std::string& dtype,
                                                        const std::string& device_fingerprint) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + result_columns("r") +
                               " FROM results r JOIN workloads w ON w.id = r.workload_id"
                               " JOIN devices d ON d.id = r.device_id WHERE w.signature = ?1"
                               " AND r.kernel = ?2 AND r.problem = ?3 AND r.dtype = ?4 AND d.fingerprint = ?5");
    bind_all(q, signature, kernel, problem, dtype, device_fingerprint);
    return read_first(q, read_result);
  });
}

int ResultRepository::adopt_legacy(const std::string& kernel, int64_t legacy_device_id, int64_t device_id,
                                   const std::string& kernel_version) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c,
                   "UPDATE OR IGNORE results SET device_id = ?3, kernel_version = ?4"
                   " WHERE kernel = ?1 AND device_id = ?2 AND kernel_version = ''",
                   kernel, legacy_device_id, device_id, kernel_version);
  });
}

std::vector<ReportRow> ResultRepository::list_report() {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + result_columns("r") + ", " + workload_columns("w") + ", " +
                               device_columns("d") +
                               " FROM results r JOIN workloads w ON w.id = r.workload_id"
                               " JOIN devices d ON d.id = r.device_id"
                               " ORDER BY r.kernel, r.problem, r.dtype, w.id, d.id");
    return read_all(q, [](RowCursor& row) {
      ReportRow report;
      report.result = read_result(row);
      report.workload = read_workload(row);
      report.device = read_device(row);
      return report;
    });
  });
}

std::vector<NeighbourResult> ResultRepository::nearest_candidates(const std::string& kernel, const std::string& problem,
                                                                  const std::string& dtype,
                                                                  const std::string& device_fingerprint) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + result_columns("r") + ", " + workload_vector_columns("w") +
                               " FROM results r JOIN workloads w ON w.id = r.workload_id"
                               " JOIN devices d ON d.id = r.device_id WHERE r.kernel = ?1"
                               " AND r.problem = ?2 AND r.dtype = ?3 AND d.fingerprint = ?4 ORDER BY w.id");
    bind_all(q, kernel, problem, dtype, device_fingerprint);
    return read_all(q, [](RowCursor& row) {
      NeighbourResult neighbour;
      neighbour.result = read_result(row);
      neighbour.workload = read_workload_vector(row);
      return neighbour;
    });
  });
}

}  // namespace ktune
