#include "server/job_manager.h"

#include <malloc.h>

#include <random>

#include "db/job_repository.h"
#include "server/logging.h"
#include "server/service_errors.h"
#include "workload/cancellation.h"
#include "workload/input_error.h"

namespace ktune {

struct JobManager::Active {
  JobRecord record;
  std::atomic<bool> cancel{false};  // by a client or by shutdown
  bool cancelled_by_client = false;
  bool finished = false;
  std::condition_variable done;
};

class JobManager::Control : public JobControl {
 public:
  Control(JobRepository& jobs, Active& job) : jobs_(jobs), job_(job) {}
  bool cancelled() const override { return job_.cancel.load(); }
  void progress(int64_t done, int64_t planned, const std::optional<nlohmann::json>& best) override {
    jobs_.update_progress(job_.record.id, done, planned);
    if (best) jobs_.set_best(job_.record.id, *best);
  }
  void search_state(const nlohmann::json& state) override { jobs_.set_search_state(job_.record.id, state); }

 private:
  JobRepository& jobs_;
  Active& job_;
};

namespace {
constexpr size_t kRememberedFailures = 1024;

std::string new_job_id() {
  static std::mutex mutex;
  static std::mt19937_64 rng{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  static const char* hex = "0123456789abcdef";
  std::string id = "j";
  uint64_t bits = rng();
  for (int i = 0; i < 16; ++i, bits >>= 4) id += hex[bits & 15];
  return id;
}
}  // namespace

JobManager::JobManager(Database& db, Metrics& metrics, Runner runner, int threads, int capacity, int max_attempts)
    : db_(db), metrics_(metrics), runner_(std::move(runner)), capacity_(static_cast<size_t>(capacity)),
      max_attempts_(max_attempts) {
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

JobManager::~JobManager() { shutdown(); }

void JobManager::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && workers_.empty()) return;
    stopping_ = true;
    for (auto& [id, job] : active_) {
      job->cancel = true;
      job->done.notify_all();  // waiting clients get their answer (202) now
    }
  }
  queue_changed_.notify_all();
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

void JobManager::enqueue(const JobRecord& record) {
  auto job = std::make_shared<Active>();
  job->record = record;
  active_[record.id] = job;
  active_by_key_[record.dedup_key] = record.id;
  queue_.push_back(job);
  metrics_.set_gauge("jobs_queued", static_cast<double>(queue_.size()));
}

JobManager::Submitted JobManager::submit(const nlohmann::json& request, const std::string& dedup_key) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) throw UnavailableError("ktuned is shutting down");
  if (auto it = active_by_key_.find(dedup_key); it != active_by_key_.end()) {
    metrics_.increment("jobs_joined_total");
    return {it->second, false};
  }
  if (queue_.size() >= capacity_)
    throw UnavailableError("the job queue is full (" + std::to_string(capacity_) + " queued); retry later");
  const JobRecord record = JobRepository(db_).create(new_job_id(), dedup_key, request);
  enqueue(record);
  metrics_.increment("jobs_submitted_total");
  lock.unlock();
  queue_changed_.notify_one();
  return {record.id, true};
}

void JobManager::resume_unfinished() {
  std::vector<JobRecord> unfinished = JobRepository(db_).list_unfinished();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (JobRecord& record : unfinished) {
      if (active_.count(record.id)) continue;
      if (record.attempts >= max_attempts_) {
        const std::string why = "the daemon stopped while this job ran, " + std::to_string(record.attempts) +
                                " times; it is not resumed again (submit it again to retry)";
        JobRepository(db_).update_state(record.id, JobState::Failed, why);
        log_error("job " + record.id + ": " + why);
        metrics_.increment("jobs_abandoned_total");
        continue;
      }
      JobRepository(db_).update_state(record.id, JobState::Queued, std::nullopt);
      record.state = JobState::Queued;
      enqueue(record);
      log_info("resuming job " + record.id);
      metrics_.increment("jobs_resumed_total");
    }
  }
  queue_changed_.notify_all();
}

void JobManager::work() {
  for (;;) {
    std::shared_ptr<Active> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      queue_changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = queue_.front();
      queue_.pop_front();
      metrics_.set_gauge("jobs_queued", static_cast<double>(queue_.size()));
    }
    run(job);
  }
}

void JobManager::run(const std::shared_ptr<Active>& job) {
  JobRepository jobs(db_);
  const std::string& id = job->record.id;
  JobState final_state = JobState::Done;
  std::optional<std::string> error;
  if (job->cancel) {
    final_state = JobState::Cancelled;
  } else {
    jobs.start_attempt(id);
    metrics_.set_gauge("jobs_running", 1);
    Control control(jobs, *job);
    CancellationScope cancellation(&job->cancel);
    try {
      nlohmann::json answer = runner_(job->record, control);
      if (job->cancel) {
        final_state = JobState::Cancelled;
      } else {
        jobs.set_best(id, answer);
      }
    } catch (const Cancelled&) {
      final_state = JobState::Cancelled;
    } catch (const InputError& e) {
      final_state = JobState::Failed;
      error = e.what();
      std::lock_guard<std::mutex> lock(mutex_);
      failures_[id] = {dynamic_cast<const NotFoundError*>(&e) ? 404
                       : dynamic_cast<const ForbiddenError*>(&e) ? 403
                       : dynamic_cast<const LimitError*>(&e) ? 413 : 400,
                       e.what()};
      // Only waiting clients read these, within seconds: a short memory is enough.
      failure_order_.push_back(id);
      if (failure_order_.size() > kRememberedFailures) {
        failures_.erase(failure_order_.front());
        failure_order_.pop_front();
      }
    } catch (const std::exception& e) {
      final_state = JobState::Failed;
      error = e.what();
      log_error("job " + id + " failed: " + e.what());
    }
    metrics_.set_gauge("jobs_running", 0);
    // A job frees hundreds of megabytes at once; glibc would keep them for the next one.
    malloc_trim(0);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // A job interrupted by shutdown stays resumable: it is left as running in the database.
    // One a client cancelled was stored as cancelled already, and update_state keeps it so.
    const bool interrupted = stopping_ && final_state == JobState::Cancelled && !job->cancelled_by_client;
    if (!interrupted) jobs.update_state(id, final_state, error);
    metrics_.increment(std::string("jobs_") + to_string(final_state) + "_total");
    active_.erase(id);
    if (auto it = active_by_key_.find(job->record.dedup_key); it != active_by_key_.end() && it->second == id)
      active_by_key_.erase(it);
    job->finished = true;
  }
  job->done.notify_all();
}

JobRecord JobManager::get(const std::string& id) {
  std::optional<JobRecord> record = JobRepository(db_).get(id);
  if (!record) throw NotFoundError("no job '" + id + "'");
  return *record;
}

JobRecord JobManager::wait(const std::string& id, double seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (auto it = active_.find(id); it != active_.end()) {
    std::shared_ptr<Active> job = it->second;
    job->done.wait_for(lock, std::chrono::duration<double>(seconds), [this, &job] { return job->finished || stopping_; });
  }
  lock.unlock();
  return get(id);
}

JobRecord JobManager::cancel(const std::string& id) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = active_.find(id);
    if (it != active_.end() && !it->second->cancelled_by_client) {
      it->second->cancel = true;
      it->second->cancelled_by_client = true;
      // Stored at once: a running job stops within a second, but what it says is settled now.
      JobRepository(db_).update_state(id, JobState::Cancelled, std::nullopt);
      metrics_.increment("jobs_cancel_requests_total");
      // A job still in the queue is dropped at once.
      for (auto q = queue_.begin(); q != queue_.end(); ++q) {
        if ((*q)->record.id != id) continue;
        queue_.erase(q);
        active_by_key_.erase(it->second->record.dedup_key);
        it->second->finished = true;
        it->second->done.notify_all();
        active_.erase(it);
        break;
      }
      return get(id);
    }
  }
  JobRecord record = get(id);
  if (is_finished(record.state))
    throw ConflictError("job '" + id + "' already finished (" + to_string(record.state) + ")");
  return record;
}

std::optional<JobFailure> JobManager::failure(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = failures_.find(id);
  if (it == failures_.end()) return std::nullopt;
  return it->second;
}

}  // namespace ktune
