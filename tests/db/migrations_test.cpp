#include "db/migrations.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "db/result_repository.h"
#include "db/workload_repository.h"
#include "db_test_support.h"

namespace ktune {
namespace {

using MigrationsTest = dbtest::DbTest;

int64_t count_rows(SQLite::Database& raw, const std::string& sql) {
  return raw.execAndGet(sql).getInt64();
}

std::string schema_text(const std::string& path) {
  SQLite::Database raw(path);
  return raw.execAndGet("SELECT group_concat(sql, ';') FROM sqlite_master").getString();
}

TEST_F(MigrationsTest, FreshDatabaseGetsEveryMigrationAndEveryTable) {
  open();
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("PRAGMA user_version").getInt(), static_cast<int>(migrations().size()));
  EXPECT_EQ(db_->schema_version(), static_cast<int>(migrations().size()));
  for (const char* table : {"workloads", "uploads", "devices", "compiled_kernels", "jobs",
                            "candidates", "measurements", "baselines", "results"}) {
    EXPECT_TRUE(raw.tableExists(table)) << table;
  }
  EXPECT_EQ(count_rows(raw,
                       "SELECT count(*) FROM sqlite_master WHERE type = 'index'"
                       " AND name = 'jobs_by_dedup_key'"),
            1);
}

TEST_F(MigrationsTest, ReopeningKeepsDataAndChangesNoSchema) {
  open();
  add_workload("sig-a");
  const std::string schema_before = schema_text(path_);
  open();
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("PRAGMA user_version").getInt(), static_cast<int>(migrations().size()));
  EXPECT_EQ(schema_text(path_), schema_before);
  EXPECT_TRUE(WorkloadRepository(*db_).get_by_signature("sig-a").has_value());
}

TEST_F(MigrationsTest, DatabaseFromNewerVersionIsRefusedWithMessage) {
  const int newer = static_cast<int>(migrations().size()) + 3;
  {
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec("PRAGMA user_version = " + std::to_string(newer));
  }
  try {
    open();
    FAIL() << "a database from a newer ktune was opened";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path_), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(newer)), std::string::npos) << message;
    EXPECT_NE(message.find("upgrade"), std::string::npos) << message;
  }
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("PRAGMA user_version").getInt(), newer);
  EXPECT_FALSE(raw.tableExists("jobs"));
}

// Migration 2 removes the SpMV answers whose schedule adds into y and whose launch list lacks
// the zeroing launch (stored before 121b720); everything else stays.
TEST_F(MigrationsTest, SpmvAnswersWithoutTheirZeroingLaunchAreRemoved) {
  {
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec(std::string(migrations().at(0).sql));
    raw.exec("PRAGMA user_version = 1");
    raw.exec("INSERT INTO devices (id, fingerprint, name, details) VALUES (1, 'fp', 'GPU', '{}')");
    for (int w = 1; w <= 5; ++w)
      raw.exec("INSERT INTO workloads (id, signature, kind, rows, cols, nnz, features, vector) VALUES (" +
               std::to_string(w) + ", 'sig" + std::to_string(w) + "', 'sparse_matrix', 1, 1, 1, '{}', '[]')");
    auto add = [&](int workload, const std::string& kernel, const std::string& schedule, const std::string& launch) {
      raw.exec("INSERT INTO results (workload_id, kernel, dtype, device_id, config, answer, source, predicted_us, "
               "provenance) VALUES (" + std::to_string(workload) + ", '" + kernel + "', 'f32', 1, '{\"schedule\": \"" +
               schedule + "\"}', '{\"launch\": [" + launch + "]}', 'model', 1.0, '{}')");
    };
    add(1, "spmv", "merge", "{\"entry\": \"spmv_merge\"}");                                       // stale
    add(2, "spmv", "adaptive_hot", "{\"entry\": \"spmv_gather_hot_x\"}, {\"entry\": \"spmv_adaptive\"}");  // stale
    add(3, "spmv", "merge", "{\"entry\": \"spmv_zero_rows\"}, {\"entry\": \"spmv_merge\"}");  // current
    add(4, "spmv", "subwarp", "{\"entry\": \"spmv_subwarp\"}");                                   // never adds into y
    add(5, "other", "merge", "{\"entry\": \"k\"}");                                               // another family
  }
  open();
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("PRAGMA user_version").getInt(), static_cast<int>(migrations().size()));
  EXPECT_EQ(raw.execAndGet("SELECT group_concat(workload_id) FROM (SELECT workload_id FROM results ORDER BY 1)").getString(),
            "3,4,5");
  EXPECT_EQ(count_rows(raw, "SELECT count(*) FROM workloads"), 5);
}

TEST_F(MigrationsTest, FailedMigrationLeavesNoHalfAppliedSchema) {
  {
    // A stray table that makes migration 1 fail part-way: its later CREATE TABLEs must vanish.
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec("CREATE TABLE results (x INTEGER)");
  }
  try {
    open();
    FAIL() << "migration over a conflicting table succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("migration 1"), std::string::npos) << e.what();
  }
  SQLite::Database raw(path_);
  EXPECT_EQ(raw.execAndGet("PRAGMA user_version").getInt(), 0);
  EXPECT_FALSE(raw.tableExists("workloads"));
  EXPECT_TRUE(raw.tableExists("results"));
}

}  // namespace
}  // namespace ktune

namespace ktune {
namespace {

using MigrationsTest = dbtest::DbTest;

// Migration 5 rebuilds results keyed by problem: every stored answer is carried over
// unchanged, as an answer to the problem without parameters ('{}'), awaiting its version.
TEST_F(MigrationsTest, StoredAnswersSurviveTheRebuildAsProblemlessAnswers) {
  {
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    for (size_t m = 0; m < 4; ++m) raw.exec(std::string(migrations().at(m).sql));
    raw.exec("PRAGMA user_version = 4");
    raw.exec("INSERT INTO devices (id, fingerprint, name, details) VALUES (1, 'fp', 'GPU', '{}')");
    raw.exec("INSERT INTO workloads (id, signature, kind, rows, cols, nnz, features, vector)"
             " VALUES (1, 'sig', 'sparse_matrix', 1, 1, 1, '{}', '[]')");
    raw.exec("INSERT INTO results (id, workload_id, kernel, dtype, device_id, config, answer, source, predicted_us,"
             " provenance) VALUES (7, 1, 'spmv', 'f64', 1, '{\"lanes\":8}', '{\"kernel\":\"spmv\"}', 'measured', 2.5, '{}')");
  }
  open();
  const auto kept = ResultRepository(*db_).get_exact("sig", "spmv", "{}", "f64", "fp");
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->id, 7);
  EXPECT_EQ(kept->config, (nlohmann::json{{"lanes", 8}}));
  EXPECT_EQ(kept->answer, (nlohmann::json{{"kernel", "spmv"}}));
  EXPECT_EQ(kept->source, ResultSource::Measured);
  EXPECT_EQ(kept->kernel_version, "");
  // Two problems of one workload are two answers now.
  ResultRecord k32 = *kept;
  k32.kernel = "spmm";
  k32.problem = R"({"k":32})";
  ResultRecord k128 = k32;
  k128.problem = R"({"k":128})";
  EXPECT_NE(ResultRepository(*db_).upsert(k32), ResultRepository(*db_).upsert(k128));
}

}  // namespace
}  // namespace ktune
