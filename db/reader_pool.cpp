#include "db/reader_pool.h"

#include <SQLiteCpp/SQLiteCpp.h>

namespace ktune {

ReaderPool::Lease::Lease(ReaderPool& pool, std::unique_ptr<SQLite::Database> connection)
    : pool_(pool), connection_(std::move(connection)) {}

ReaderPool::Lease::~Lease() { pool_.give_back(std::move(connection_)); }

ReaderPool::ReaderPool(Opener open) : open_(std::move(open)) {}

ReaderPool::~ReaderPool() = default;

ReaderPool::Lease ReaderPool::acquire() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      auto connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(connection));
    }
  }
  // Opened outside the lock: opening touches the file and should not hold up other readers.
  return Lease(*this, open_());
}

size_t ReaderPool::idle_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return idle_.size();
}

void ReaderPool::give_back(std::unique_ptr<SQLite::Database> connection) {
  std::lock_guard<std::mutex> lock(mutex_);
  idle_.push_back(std::move(connection));
}

}  // namespace ktune
