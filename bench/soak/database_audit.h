#pragma once
// The daemon's SQLite database read directly, as the soak's last word: every job in a final
// state, the file intact, every stored answer usable (JSON with a "parameters" object).
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ktune::soak {

struct DatabaseAudit {
  std::map<std::string, int64_t> jobs_by_state;
  std::vector<std::string> unfinished_jobs;  // ids of jobs queued or running
  std::string integrity;                     // PRAGMA integrity_check's answer: "ok" when intact
  int64_t results = 0;
  std::vector<std::string> bad_results;  // "result 12: ..." for answers that are not usable
  int64_t uploads = 0;

  bool ok() const { return unfinished_jobs.empty() && integrity == "ok" && bad_results.empty(); }
  nlohmann::json to_json() const;
};

// Opens `database` read-only; throws SQLite::Exception when it cannot be read at all.
DatabaseAudit audit_database(const std::filesystem::path& database);

// Jobs queued or running; safe while the daemon runs.
int64_t count_unfinished_jobs(const std::filesystem::path& database);

}  // namespace ktune::soak
