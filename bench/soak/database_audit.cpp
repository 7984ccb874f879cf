#include "bench/soak/database_audit.h"

#include <SQLiteCpp/SQLiteCpp.h>

namespace ktune::soak {
namespace {

// The daemon may be writing: wait for its locks rather than fail.
constexpr int kBusyTimeoutMs = 10000;

// Why the stored answer is unusable, or "" when it is fine.
std::string answer_problem(const std::string& text) {
  const nlohmann::json answer = nlohmann::json::parse(text, nullptr, false);
  if (answer.is_discarded()) return "the answer is not valid JSON";
  if (!answer.is_object() || !answer.contains("parameters") || !answer["parameters"].is_object())
    return "the answer has no \"parameters\" object";
  return "";
}

}  // namespace

nlohmann::json DatabaseAudit::to_json() const {
  return {{"jobs_by_state", jobs_by_state},
          {"unfinished_jobs", unfinished_jobs},
          {"integrity_check", integrity},
          {"results", results},
          {"bad_results", bad_results},
          {"uploads", uploads},
          {"ok", ok()}};
}

DatabaseAudit audit_database(const std::filesystem::path& database) {
  SQLite::Database db(database.string(), SQLite::OPEN_READONLY, kBusyTimeoutMs);
  DatabaseAudit audit;
  SQLite::Statement integrity(db, "PRAGMA integrity_check");
  while (integrity.executeStep())
    audit.integrity += (audit.integrity.empty() ? "" : "; ") + integrity.getColumn(0).getString();
  SQLite::Statement jobs(db, "SELECT id, state FROM jobs");
  while (jobs.executeStep()) {
    const std::string state = jobs.getColumn(1).getString();
    ++audit.jobs_by_state[state];
    if (state == "queued" || state == "running") audit.unfinished_jobs.push_back(jobs.getColumn(0).getString());
  }
  SQLite::Statement results(db, "SELECT id, answer FROM results");
  while (results.executeStep()) {
    ++audit.results;
    const std::string problem = answer_problem(results.getColumn(1).getString());
    if (!problem.empty()) audit.bad_results.push_back("result " + results.getColumn(0).getString() + ": " + problem);
  }
  audit.uploads = db.execAndGet("SELECT COUNT(*) FROM uploads").getInt64();
  return audit;
}

int64_t count_unfinished_jobs(const std::filesystem::path& database) {
  SQLite::Database db(database.string(), SQLite::OPEN_READONLY, kBusyTimeoutMs);
  return db.execAndGet("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')").getInt64();
}

}  // namespace ktune::soak
