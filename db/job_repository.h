#pragma once
// Tuning jobs: their lifecycle (queued → running → done | failed | cancelled), progress, best
// answer so far and search state, so that unfinished jobs resume after a restart.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class JobRepository {
 public:
  explicit JobRepository(Database& db) : db_(db) {}

  // Stores a new queued job and returns it as stored. Throws when the id is taken.
  JobRecord create(const std::string& id, const std::string& dedup_key,
                   const nlohmann::json& request);
  std::optional<JobRecord> get(const std::string& id);

  // The updates below return false when no job has this id.

  // Moves a job to `state`, storing `error` with it. Finished jobs stay as they are, so that
  // a worker finishing a job cannot undo its cancellation: then this returns false too.
  bool update_state(const std::string& id, JobState state,
                    const std::optional<std::string>& error = std::nullopt);
  // Moves an unfinished job to running and counts the attempt.
  bool start_attempt(const std::string& id);
  bool update_progress(const std::string& id, int64_t done, int64_t planned);
  bool set_best(const std::string& id, const nlohmann::json& best);
  bool set_search_state(const std::string& id, const nlohmann::json& search_state);

  // The newest queued or running job with this key, if any.
  std::optional<JobRecord> find_active_by_dedup_key(const std::string& dedup_key);
  // Queued and running jobs, oldest first: the order to resume them in.
  std::vector<JobRecord> list_unfinished();
  // The `limit` newest jobs, newest first; only those in one of `states` when it is not empty.
  std::vector<JobRecord> list_recent(int64_t limit, const std::vector<JobState>& states = {});

 private:
  Database& db_;
};

}  // namespace ktune
