#pragma once
// The SQLite store of one daemon: a file in WAL mode with one writer connection, serialised by
// a mutex, and a pool of reader connections. In WAL mode readers see the last committed state
// and never wait for a writer, so a long write transaction does not stall API lookups.
// Thread safe. Repositories (db/*_repository.h) wrap it with typed methods.
#include <SQLiteCpp/SQLiteCpp.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "db/reader_pool.h"

namespace ktune {

class Database {
 public:
  // Opens or creates the file and applies pending migrations. Throws std::runtime_error naming
  // the path when the file cannot be opened, is not a database, or comes from a newer ktune;
  // std::invalid_argument for an in-memory path, which the reader connections cannot share.
  explicit Database(std::string path);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const std::string& path() const { return path_; }
  int schema_version();
  // Bytes on disk: the file and its write-ahead log.
  int64_t size_bytes() const;

  // Runs f(SQLite::Database&) inside a write transaction and commits; returns what f returns.
  // If f throws, the transaction rolls back and the exception propagates. Must not be called
  // from inside f (the writer lock is not reentrant).
  template <typename F>
  auto write(F&& f) {
    std::lock_guard<std::mutex> lock(write_mutex_);
    SQLite::Transaction transaction(*writer_, SQLite::TransactionBehavior::IMMEDIATE);
    if constexpr (std::is_void_v<std::invoke_result_t<F, SQLite::Database&>>) {
      std::forward<F>(f)(*writer_);
      transaction.commit();
    } else {
      auto result = std::forward<F>(f)(*writer_);
      transaction.commit();
      return result;
    }
  }

  // Runs f(SQLite::Database&) on a read-only connection inside one read transaction, so that
  // all its statements see the same snapshot; returns what f returns.
  template <typename F>
  auto read(F&& f) {
    ReaderPool::Lease lease = readers_.acquire();
    SQLite::Transaction snapshot(lease.connection(), SQLite::TransactionBehavior::DEFERRED);
    return std::forward<F>(f)(lease.connection());
  }

 private:
  std::unique_ptr<SQLite::Database> open_connection(bool writable) const;

  std::string path_;
  std::mutex write_mutex_;
  std::unique_ptr<SQLite::Database> writer_;
  ReaderPool readers_;
};

}  // namespace ktune
