#include "db/candidate_repository.h"

#include "db/record_rows.h"

namespace ktune {

int64_t CandidateRepository::add(const CandidateRecord& candidate) {
  return db_.write([&](SQLite::Database& c) {
    execute(c,
            "INSERT INTO candidates (job_id, workload_id, kernel, dtype, device_id, config,"
            " config_key, kernel_key, predicted_us) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
            " ON CONFLICT (job_id, config_key) DO UPDATE SET"
            " kernel_key = coalesce(excluded.kernel_key, candidates.kernel_key),"
            " predicted_us = coalesce(excluded.predicted_us, candidates.predicted_us)",
            candidate.job_id, candidate.workload_id, candidate.kernel, candidate.dtype,
            candidate.device_id, candidate.config, candidate.config_key, candidate.kernel_key,
            candidate.predicted_us);
    return query_int64(c, "SELECT id FROM candidates WHERE job_id = ?1 AND config_key = ?2",
                       candidate.job_id, candidate.config_key);
  });
}

std::vector<CandidateRecord> CandidateRepository::list_for_job(const std::string& job_id) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + candidate_columns("c") +
                               " FROM candidates c WHERE c.job_id = ?1 ORDER BY c.id");
    bind_all(q, job_id);
    return read_all(q, read_candidate);
  });
}

std::vector<CandidateWithMeasurement> CandidateRepository::list_with_measurements(const std::string& job_id) {
  return db_.read([&](SQLite::Database& c) {
    // `measured` tells a candidate without measurement (all-NULL columns) from one with.
    SQLite::Statement q(c, "SELECT " + candidate_columns("c") + ", m.id IS NOT NULL AS measured, " +
                               measurement_columns("m") +
                               " FROM candidates c LEFT JOIN measurements m ON m.id ="
                               " (SELECT max(id) FROM measurements WHERE candidate_id = c.id)"
                               " WHERE c.job_id = ?1 ORDER BY c.id");
    bind_all(q, job_id);
    return read_all(q, [](RowCursor& row) {
      CandidateWithMeasurement listed;
      listed.candidate = read_candidate(row);
      if (row.boolean()) listed.measurement = read_measurement(row);
      return listed;
    });
  });
}

}  // namespace ktune
