#pragma once
// Tuning jobs: a bounded queue, worker threads, one shared job per identical request
// (single flight), cancellation, waiting, and resumption of unfinished jobs after a restart.
// The job's state lives in the database; this class holds only what is in flight.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "db/database.h"
#include "db/records.h"
#include "server/metrics.h"

namespace ktune {

// What a running job may ask of its manager.
class JobControl {
 public:
  virtual ~JobControl() = default;
  virtual bool cancelled() const = 0;
  virtual void progress(int64_t done, int64_t planned, const std::optional<nlohmann::json>& best) = 0;
  // The search's state (seed, where it stands), kept with the job for resuming and for
  // GET /v1/jobs/{id}'s progress.
  virtual void search_state(const nlohmann::json& state) = 0;
};

// A job's failure caused by its input (a bad file named by path, say): answered as 4xx.
struct JobFailure {
  int http_status = 422;
  std::string message;
};

class JobManager {
 public:
  // Runs one job and returns its answer; throws on failure (InputError → 4xx for waiting clients).
  using Runner = std::function<nlohmann::json(const JobRecord& job, JobControl& control)>;

  // A job that was running `max_attempts` times when the daemon stopped is not resumed again.
  JobManager(Database& db, Metrics& metrics, Runner runner, int threads, int capacity, int max_attempts = 3);
  ~JobManager();

  struct Submitted {
    std::string id;
    bool is_new = false;
  };
  // Joins an active job with the same dedup key, or queues a new one (UnavailableError when full).
  Submitted submit(const nlohmann::json& request, const std::string& dedup_key);
  // Waits until the job finishes, `seconds` pass or the manager shuts down; returns its record.
  JobRecord wait(const std::string& id, double seconds);
  JobRecord get(const std::string& id);  // NotFoundError when unknown
  // Stored as cancelled at once; a running job stops within about a second (its runner sees
  // workload/cancellation.h's flag). ConflictError when already finished.
  JobRecord cancel(const std::string& id);
  std::optional<JobFailure> failure(const std::string& id);
  // Queues again every job a previous run left queued or running, but fails those that
  // already started max_attempts times (they keep taking the daemon down with them).
  void resume_unfinished();
  // Stops taking jobs; running jobs are cancelled at their next safe point and left resumable.
  void shutdown();

 private:
  struct Active;
  class Control;
  void work();
  void run(const std::shared_ptr<Active>& job);
  void enqueue(const JobRecord& record);

  Database& db_;
  Metrics& metrics_;
  Runner runner_;
  size_t capacity_;
  int max_attempts_;
  std::mutex mutex_;
  std::condition_variable queue_changed_;
  std::deque<std::shared_ptr<Active>> queue_;
  std::map<std::string, std::shared_ptr<Active>> active_;        // by id, queued or running
  std::map<std::string, std::string> active_by_key_;             // dedup key -> id
  std::map<std::string, JobFailure> failures_;                   // recent input failures
  std::deque<std::string> failure_order_;                        // oldest first, to bound failures_
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace ktune
