#include "db/measurement_repository.h"

#include "db/record_rows.h"

namespace ktune {

int64_t MeasurementRepository::add(const MeasurementRecord& measurement) {
  return db_.write([&](SQLite::Database& c) {
    execute(c,
            "INSERT INTO measurements (candidate_id, status, median_us, iqr_us, count,"
            " max_rel_error, message, hot) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            measurement.candidate_id, to_string(measurement.status), measurement.median_us,
            measurement.iqr_us, measurement.count, measurement.max_rel_error, measurement.message,
            measurement.hot);
    return c.getLastInsertRowid();
  });
}

std::vector<MeasuredCandidate> MeasurementRepository::list_for_job(const std::string& job_id) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + candidate_columns("c") + ", " + measurement_columns("m") +
                               " FROM measurements m JOIN candidates c ON c.id = m.candidate_id"
                               " WHERE c.job_id = ?1 ORDER BY m.id");
    bind_all(q, job_id);
    return read_all(q, [](RowCursor& row) {
      MeasuredCandidate measured;
      measured.candidate = read_candidate(row);
      measured.measurement = read_measurement(row);
      return measured;
    });
  });
}

int64_t MeasurementRepository::count_for_job(const std::string& job_id) {
  return db_.read([&](SQLite::Database& c) {
    return query_int64(c,
                       "SELECT count(*) FROM measurements m JOIN candidates c"
                       " ON c.id = m.candidate_id WHERE c.job_id = ?1",
                       job_id);
  });
}

}  // namespace ktune
