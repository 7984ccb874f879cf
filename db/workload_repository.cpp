#include "db/workload_repository.h"

#include <cmath>
#include <stdexcept>

#include "db/record_rows.h"

namespace ktune {

namespace {

// JSON has no NaN or infinity: such a value would be stored as null and fail every later read.
void require_finite(const WorkloadRecord& workload) {
  for (size_t i = 0; i < workload.vector.size(); ++i) {
    if (!std::isfinite(workload.vector[i])) {
      throw std::invalid_argument("feature vector of workload " + workload.signature +
                                  " has a non-finite value at index " + std::to_string(i));
    }
  }
}

}  // namespace

int64_t WorkloadRepository::upsert(const WorkloadRecord& workload) {
  require_finite(workload);
  const nlohmann::json vector = workload.vector;
  return db_.write([&](SQLite::Database& c) {
    execute(
        c,
        "INSERT INTO workloads (signature, kind, rows, cols, nnz, features, vector, description)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        " ON CONFLICT (signature) DO UPDATE SET kind = excluded.kind, rows = excluded.rows,"
        " cols = excluded.cols, nnz = excluded.nnz, features = excluded.features,"
        " vector = excluded.vector, description = CASE excluded.description"
        " WHEN '' THEN workloads.description ELSE excluded.description END",
        workload.signature, workload.kind, workload.rows, workload.cols, workload.nnz,
        workload.features, vector, workload.description);
    return query_int64(c, "SELECT id FROM workloads WHERE signature = ?1", workload.signature);
  });
}

std::optional<WorkloadRecord> WorkloadRepository::get(int64_t id) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + workload_columns("w") + " FROM workloads w WHERE w.id = ?1");
    bind_all(q, id);
    return read_first(q, read_workload);
  });
}

std::optional<WorkloadRecord> WorkloadRepository::get_by_signature(const std::string& signature) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(
        c, "SELECT " + workload_columns("w") + " FROM workloads w WHERE w.signature = ?1");
    bind_all(q, signature);
    return read_first(q, read_workload);
  });
}

std::vector<WorkloadVector> WorkloadRepository::list_vectors(const std::string& kind) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + workload_vector_columns("w") +
                               " FROM workloads w WHERE w.kind = ?1 ORDER BY w.id");
    bind_all(q, kind);
    return read_all(q, read_workload_vector);
  });
}

}  // namespace ktune
