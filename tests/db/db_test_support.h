#pragma once
// A fresh database file per test, removed with its WAL files afterwards, and the smallest
// valid parent rows that foreign keys ask for.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "db/database.h"
#include "db/device_repository.h"
#include "db/job_repository.h"
#include "db/records.h"
#include "db/workload_repository.h"

namespace ktune::dbtest {

class DbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = ::testing::TempDir() + "ktune_" + info->test_suite_name() + "_" + info->name() + "_" +
            std::to_string(::getpid()) + ".db";
    remove_files();
  }
  void TearDown() override {
    db_.reset();
    remove_files();
  }

  Database& open() {
    db_.reset();
    db_ = std::make_unique<Database>(path_);
    return *db_;
  }

  // Parents for rows with foreign keys.
  int64_t add_workload(const std::string& signature, const std::string& kind = "sparse_matrix") {
    WorkloadRecord w;
    w.signature = signature;
    w.kind = kind;
    w.rows = 10;
    w.cols = 10;
    w.nnz = 30;
    w.vector = {1.0, 2.0};
    return WorkloadRepository(*db_).upsert(w);
  }
  int64_t add_device(const std::string& fingerprint) {
    return DeviceRepository(*db_).upsert(fingerprint, "GPU " + fingerprint, {{"sm", 90}});
  }
  void add_job(const std::string& id) { JobRepository(*db_).create(id, "key-" + id, {{"n", 1}}); }

  std::string path_;
  std::unique_ptr<Database> db_;

 private:
  void remove_files() const {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
      std::remove((path_ + suffix).c_str());
  }
};

// Every byte value, NUL included, as a binary payload.
inline std::string all_byte_values(size_t repeats = 3) {
  std::string bytes;
  for (size_t r = 0; r < repeats; ++r) {
    for (int b = 0; b < 256; ++b) bytes.push_back(static_cast<char>(b));
  }
  return bytes;
}

}  // namespace ktune::dbtest
