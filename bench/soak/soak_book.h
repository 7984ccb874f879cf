#pragma once
// What the soak's clients have made so far, shared among them: uploads to tune, look up and
// delete, and jobs to poll and cancel. The number of unfinished jobs lets a client hold back
// new tunes, so that the daemon's job queue never has to refuse one (a 503).
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace ktune::soak {

struct KnownUpload {
  std::string id, signature;
};

class SoakBook {
 public:
  void add_upload(const KnownUpload& upload);
  void remove_upload(const std::string& id);
  std::optional<KnownUpload> any_upload(std::mt19937_64& rng) const;

  void add_job(const std::string& id);
  void job_finished(const std::string& id);
  // A job not yet seen in a final state; else nullopt.
  std::optional<std::string> open_job(std::mt19937_64& rng) const;
  std::optional<std::string> any_job(std::mt19937_64& rng) const;
  size_t open_jobs() const;

 private:
  mutable std::mutex mutex_;
  std::vector<KnownUpload> uploads_;
  std::set<std::string> upload_ids_;
  std::vector<std::string> jobs_;
  std::set<std::string> job_ids_, open_;
};

}  // namespace ktune::soak
