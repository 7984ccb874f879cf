#include "db/database.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <future>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "db/candidate_repository.h"
#include "db/measurement_repository.h"
#include "db_test_support.h"

namespace ktune {
namespace {

using DatabaseTest = dbtest::DbTest;
using namespace std::chrono_literals;

int64_t count_workloads(SQLite::Database& c) {
  return c.execAndGet("SELECT count(*) FROM workloads").getInt64();
}

// A one-shot signal between two threads, with a deadline so that a broken property fails the
// test instead of hanging it.
class Signal {
 public:
  void raise() {
    std::lock_guard<std::mutex> lock(mutex_);
    raised_ = true;
    changed_.notify_all();
  }
  bool wait(std::chrono::milliseconds deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, deadline, [&] { return raised_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool raised_ = false;
};

TEST_F(DatabaseTest, ConnectionsUseWalForeignKeysNormalSyncAndBusyTimeout) {
  Database& db = open();
  auto pragmas = [](SQLite::Database& c) {
    return std::vector<std::string>{c.execAndGet("PRAGMA journal_mode").getString(),
                                    c.execAndGet("PRAGMA foreign_keys").getString(),
                                    c.execAndGet("PRAGMA synchronous").getString(),
                                    c.execAndGet("PRAGMA busy_timeout").getString()};
  };
  // synchronous: NORMAL is 1.
  const std::vector<std::string> expected{"wal", "1", "1", "5000"};
  EXPECT_EQ(db.write(pragmas), expected);
  EXPECT_EQ(db.read(pragmas), expected);
}

TEST_F(DatabaseTest, WriteCommitsAndReturnsWhatItsFunctionReturns) {
  Database& db = open();
  const int64_t id = db.write([](SQLite::Database& c) {
    c.exec(
        "INSERT INTO workloads (signature, kind, rows, cols, nnz, features, vector)"
        " VALUES ('s', 'k', 1, 1, 1, '{}', '[]')");
    return c.getLastInsertRowid();
  });
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("SELECT id FROM workloads WHERE signature = 's'").getInt64(), id);
}

TEST_F(DatabaseTest, WriteThatThrowsRollsBack) {
  Database& db = open();
  EXPECT_THROW(db.write([](SQLite::Database& c) {
    c.exec(
        "INSERT INTO workloads (signature, kind, rows, cols, nnz, features, vector)"
        " VALUES ('s', 'k', 1, 1, 1, '{}', '[]')");
    throw std::runtime_error("abandon");
  }),
               std::runtime_error);
  EXPECT_EQ(db.read(count_workloads), 0);
  // The writer is usable afterwards: the failed transaction did not leave it locked.
  add_workload("after");
  EXPECT_EQ(db.read(count_workloads), 1);
}

TEST_F(DatabaseTest, ReadRefusesToWrite) {
  Database& db = open();
  EXPECT_THROW(db.read([](SQLite::Database& c) {
    c.exec("INSERT INTO jobs (id, dedup_key, state, request) VALUES ('j', 'k', 'queued', '{}')");
  }),
               SQLite::Exception);
  EXPECT_EQ(db.read([](SQLite::Database& c) {
    return c.execAndGet("SELECT count(*) FROM jobs").getInt64();
  }),
            0);
}

TEST_F(DatabaseTest, ForeignKeysAreEnforced) {
  Database& db = open();
  EXPECT_THROW(db.write([](SQLite::Database& c) {
    c.exec("INSERT INTO uploads (id, workload_id, content, bytes) VALUES ('u', 999, x'00', 1)");
  }),
               SQLite::Exception);
}

TEST_F(DatabaseTest, InMemoryPathIsRefused) {
  EXPECT_THROW(Database(":memory:"), std::invalid_argument);
  EXPECT_THROW(Database(""), std::invalid_argument);
}

TEST_F(DatabaseTest, FileThatIsNotADatabaseIsRefusedNamingIt) {
  std::ofstream(path_) << "this is a text file, not SQLite, and long enough to be read as a header"
                       << std::string(200, 'x');
  try {
    open();
    FAIL() << "a text file opened as a database";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path_), std::string::npos) << e.what();
  }
}

TEST_F(DatabaseTest, LongWriteDoesNotBlockReaders) {
  Database& db = open();
  Signal writer_inside, reader_done;
  bool read_finished_inside_write = false;
  std::thread writer([&] {
    db.write([&](SQLite::Database& c) {
      c.exec(
          "INSERT INTO workloads (signature, kind, rows, cols, nnz, features, vector)"
          " VALUES ('uncommitted', 'k', 1, 1, 1, '{}', '[]')");
      writer_inside.raise();
      // Holds the transaction open until the reader is done (or gives up after 10 s).
      read_finished_inside_write = reader_done.wait(10s);
    });
  });
  ASSERT_TRUE(writer_inside.wait(10s));
  const int64_t seen = db.read(count_workloads);
  reader_done.raise();
  writer.join();
  EXPECT_TRUE(read_finished_inside_write);
  EXPECT_EQ(seen, 0) << "a reader saw an uncommitted row";
  EXPECT_EQ(db.read(count_workloads), 1);
}

TEST_F(DatabaseTest, LongReadDoesNotBlockWriterCommit) {
  Database& db = open();
  Signal reader_inside, writer_done;
  int64_t seen_after_commit = -1;
  std::thread reader([&] {
    db.read([&](SQLite::Database& c) {
      EXPECT_EQ(count_workloads(c), 0);
      reader_inside.raise();
      EXPECT_TRUE(writer_done.wait(10s));
      // Still the snapshot this read began with.
      seen_after_commit = count_workloads(c);
    });
  });
  ASSERT_TRUE(reader_inside.wait(10s));
  const auto start = std::chrono::steady_clock::now();
  bool committed = false;
  try {
    add_workload("committed");
    committed = true;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "the commit waited for the reader: " << e.what();
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  writer_done.raise();
  reader.join();
  ASSERT_TRUE(committed);
  // Far below the 5 s busy timeout a blocked commit would wait for.
  EXPECT_LT(elapsed, 2s);
  EXPECT_EQ(seen_after_commit, 0);
  EXPECT_EQ(db.read(count_workloads), 1);
}

TEST_F(DatabaseTest, ConcurrentWritersAllLand) {
  Database& db = open();
  const int64_t workload = add_workload("w");
  add_job("job");
  CandidateRecord c;
  c.job_id = "job";
  c.workload_id = workload;
  c.kernel = "spmv";
  c.dtype = "f32";
  c.config_key = "lanes=8";
  const int64_t candidate = CandidateRepository(db).add(c);
  constexpr int kThreads = 8;
  constexpr int kEach = 25;
  std::vector<std::future<std::vector<int64_t>>> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.push_back(std::async(std::launch::async, [&db, candidate, t] {
      MeasurementRepository measurements(db);
      std::vector<int64_t> ids;
      for (int i = 0; i < kEach; ++i) {
        MeasurementRecord m;
        m.candidate_id = candidate;
        m.median_us = t * 1000.0 + i;
        ids.push_back(measurements.add(m));
      }
      return ids;
    }));
  }
  std::set<int64_t> ids;
  for (auto& w : writers) {
    for (int64_t id : w.get()) ids.insert(id);
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(kThreads * kEach));
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("SELECT count(DISTINCT median_us) FROM measurements").getInt64(),
            kThreads * kEach);
}

TEST_F(DatabaseTest, TwoDatabasesOnOneFileShareItSafely) {
  // Two daemons (or a daemon and a tool) on one file: the busy timeout serialises their writes.
  open();
  Database other(path_);
  constexpr int kEach = 40;
  auto insert_from = [](Database& db, const std::string& prefix) {
    WorkloadRepository workloads(db);
    for (int i = 0; i < kEach; ++i) {
      WorkloadRecord w;
      w.signature = prefix + std::to_string(i);
      w.kind = "sparse_matrix";
      workloads.upsert(w);
    }
  };
  std::thread a([&] { insert_from(*db_, "a"); });
  std::thread b([&] { insert_from(other, "b"); });
  a.join();
  b.join();
  EXPECT_EQ(other.read(count_workloads), 2 * kEach);
}

}  // namespace
}  // namespace ktune
