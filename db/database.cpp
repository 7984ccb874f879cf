#include "db/database.h"

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

#include "db/migrations.h"

namespace ktune {

namespace {

constexpr int kBusyTimeoutMs = 5000;

// Each connection would otherwise see its own empty database.
void refuse_in_memory(const std::string& path) {
  if (path.empty() || path == ":memory:") {
    throw std::invalid_argument("ktune needs a database file path, not '" + path +
                                "': its reader connections must share one database");
  }
}

std::runtime_error damaged(const std::string& path, const std::string& what) {
  return std::runtime_error("database '" + path + "' is damaged (" + what +
                            "); restore it from a backup, or move it aside and start ktuned with another --db");
}

// A file damaged below the level of values (pages, indexes) would fail later on some query
// with a message that names neither the file nor what to do.
void check_integrity(SQLite::Database& db, const std::string& path) {
  SQLite::Statement check(db, "PRAGMA quick_check(3)");
  std::string problems;
  while (check.executeStep()) {
    const std::string line = check.getColumn(0).getString();
    if (line == "ok") return;
    problems += (problems.empty() ? "" : "; ") + line;
  }
  throw damaged(path, "SQLite's quick_check: " + problems);
}

}  // namespace

Database::Database(std::string path)
    : path_(std::move(path)), readers_([this] { return open_connection(false); }) {
  refuse_in_memory(path_);
  writer_ = open_connection(true);
  try {
    check_integrity(*writer_, path_);
    migrate(*writer_, path_);
    const std::string mode = writer_->execAndGet("PRAGMA journal_mode = WAL").getString();
    if (mode != "wal") {
      throw std::runtime_error("database '" + path_ + "' cannot use WAL journaling (mode is '" +
                               mode + "'); put it on a local file system");
    }
  } catch (const SQLite::Exception& e) {
    if (e.getErrorCode() == SQLITE_CORRUPT || e.getErrorCode() == SQLITE_NOTADB) throw damaged(path_, e.what());
    throw std::runtime_error("cannot use database '" + path_ + "': " + e.what());
  }
}

int64_t Database::size_bytes() const {
  int64_t total = 0;
  for (const std::string& file : {path_, path_ + "-wal"}) {
    std::error_code error;
    const auto size = std::filesystem::file_size(file, error);
    if (!error) total += static_cast<int64_t>(size);
  }
  return total;
}

int Database::schema_version() {
  return read([](SQLite::Database& c) { return ktune::schema_version(c); });
}

std::unique_ptr<SQLite::Database> Database::open_connection(bool writable) const {
  const int flags =
      writable ? SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE : SQLite::OPEN_READWRITE;
  try {
    auto connection = std::make_unique<SQLite::Database>(path_, flags, kBusyTimeoutMs);
    connection->exec("PRAGMA foreign_keys = ON");
    connection->exec("PRAGMA synchronous = NORMAL");
    // Readers open read-write (a WAL reader must be able to update the shared-memory index)
    // but refuse writes, so a write slipped into read() fails instead of bypassing the lock.
    if (!writable) connection->exec("PRAGMA query_only = ON");
    return connection;
  } catch (const SQLite::Exception& e) {
    if (e.getErrorCode() == SQLITE_CORRUPT || e.getErrorCode() == SQLITE_NOTADB) throw damaged(path_, e.what());
    throw std::runtime_error("cannot open database '" + path_ + "': " + e.what());
  }
}

}  // namespace ktune
