#pragma once
// Read-only connections handed out one per reader at a time. SQLite connections must not be
// shared between threads mid-statement, and opening one per read is slow: idle ones are kept.
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace SQLite {
class Database;
}

namespace ktune {

class ReaderPool {
 public:
  using Opener = std::function<std::unique_ptr<SQLite::Database>()>;

  // Gives its connection back to the pool when it goes out of scope.
  class Lease {
   public:
    Lease(ReaderPool& pool, std::unique_ptr<SQLite::Database> connection);
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    SQLite::Database& connection() { return *connection_; }

   private:
    ReaderPool& pool_;
    std::unique_ptr<SQLite::Database> connection_;
  };

  explicit ReaderPool(Opener open);
  ~ReaderPool();

  Lease acquire();
  size_t idle_count() const;

 private:
  void give_back(std::unique_ptr<SQLite::Database> connection);

  Opener open_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<SQLite::Database>> idle_;
};

}  // namespace ktune
