#include "db/job_repository.h"

#include "db/record_rows.h"

namespace ktune {

namespace {

constexpr const char* kUnfinished = "('queued', 'running')";

std::optional<JobRecord> find_job(SQLite::Database& c, const std::string& id) {
  SQLite::Statement q(c, "SELECT " + job_columns("j") + " FROM jobs j WHERE j.id = ?1");
  bind_all(q, id);
  return read_first(q, read_job);
}

}  // namespace

JobRecord JobRepository::create(const std::string& id, const std::string& dedup_key,
                                const nlohmann::json& request) {
  return db_.write([&](SQLite::Database& c) {
    execute(c, "INSERT INTO jobs (id, dedup_key, state, request) VALUES (?1, ?2, ?3, ?4)", id,
            dedup_key, to_string(JobState::Queued), request);
    return *find_job(c, id);
  });
}

std::optional<JobRecord> JobRepository::get(const std::string& id) {
  return db_.read([&](SQLite::Database& c) { return find_job(c, id); });
}

bool JobRepository::update_state(const std::string& id, JobState state,
                                 const std::optional<std::string>& error) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c,
                   std::string("UPDATE jobs SET state = ?2, error = ?3, updated_at = ") + kSqlNow +
                       " WHERE id = ?1 AND state IN " + kUnfinished,
                   id, to_string(state), error) > 0;
  });
}

bool JobRepository::start_attempt(const std::string& id) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c,
                   std::string("UPDATE jobs SET state = 'running', attempts = attempts + 1, updated_at = ") + kSqlNow +
                       " WHERE id = ?1 AND state IN " + kUnfinished,
                   id) > 0;
  });
}

bool JobRepository::update_progress(const std::string& id, int64_t done, int64_t planned) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c,
                   std::string("UPDATE jobs SET progress_done = ?2, progress_planned = ?3,"
                               " updated_at = ") +
                       kSqlNow + " WHERE id = ?1",
                   id, done, planned) > 0;
  });
}

bool JobRepository::set_best(const std::string& id, const nlohmann::json& best) {
  return db_.write([&](SQLite::Database& c) {
    return execute(
               c,
               std::string("UPDATE jobs SET best = ?2, updated_at = ") + kSqlNow + " WHERE id = ?1",
               id, best) > 0;
  });
}

bool JobRepository::set_search_state(const std::string& id, const nlohmann::json& search_state) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c,
                   std::string("UPDATE jobs SET search_state = ?2, updated_at = ") + kSqlNow +
                       " WHERE id = ?1",
                   id, search_state) > 0;
  });
}

std::optional<JobRecord> JobRepository::find_active_by_dedup_key(const std::string& dedup_key) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + job_columns("j") +
                               " FROM jobs j WHERE j.dedup_key = ?1 AND j.state IN " + kUnfinished +
                               " ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1");
    bind_all(q, dedup_key);
    return read_first(q, read_job);
  });
}

std::vector<JobRecord> JobRepository::list_unfinished() {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + job_columns("j") + " FROM jobs j WHERE j.state IN " +
                               kUnfinished + " ORDER BY j.created_at, j.rowid");
    return read_all(q, read_job);
  });
}

std::vector<JobRecord> JobRepository::list_recent(int64_t limit, const std::vector<JobState>& states) {
  // The states' stored names are fixed words of ours, so they may be spelled into the SQL.
  std::string where;
  for (JobState s : states) where += (where.empty() ? " WHERE j.state IN ('" : ", '") + std::string(to_string(s)) + "'";
  if (!where.empty()) where += ")";
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + job_columns("j") + " FROM jobs j" + where +
                               " ORDER BY j.created_at DESC, j.rowid DESC LIMIT ?1");
    bind_all(q, limit);
    return read_all(q, read_job);
  });
}

}  // namespace ktune
