#include "bench/soak/soak_book.h"

#include <algorithm>
#include <iterator>

#include "bench/soak/random_pick.h"

namespace ktune::soak {

void SoakBook::add_upload(const KnownUpload& upload) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (upload_ids_.insert(upload.id).second) uploads_.push_back(upload);
}

void SoakBook::remove_upload(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  upload_ids_.erase(id);
  uploads_.erase(std::remove_if(uploads_.begin(), uploads_.end(), [&id](const KnownUpload& u) { return u.id == id; }),
                 uploads_.end());
}

std::optional<KnownUpload> SoakBook::any_upload(std::mt19937_64& rng) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (uploads_.empty()) return std::nullopt;
  return uploads_[below(rng, uploads_.size())];
}

void SoakBook::add_job(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (job_ids_.insert(id).second) {
    jobs_.push_back(id);
    open_.insert(id);
  }
}

void SoakBook::job_finished(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  open_.erase(id);
}

std::optional<std::string> SoakBook::open_job(std::mt19937_64& rng) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_.empty()) return std::nullopt;
  return *std::next(open_.begin(), static_cast<long>(below(rng, open_.size())));
}

std::optional<std::string> SoakBook::any_job(std::mt19937_64& rng) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (jobs_.empty()) return std::nullopt;
  return jobs_[below(rng, jobs_.size())];
}

size_t SoakBook::open_jobs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_.size();
}

}  // namespace ktune::soak
