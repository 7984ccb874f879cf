#include "db/migrations.h"

#include <SQLiteCpp/SQLiteCpp.h>

#include <stdexcept>

#include "migration_scripts.h"

namespace ktune {

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> all = {
      {"initial schema", sql::k_0001_initial_schema_sql},
      {"spmv answers without their zeroing launch", sql::k_0002_spmv_answers_without_zeroing_launch_sql},
      {"job attempts", sql::k_0003_job_attempts_sql},
      {"upload last use", sql::k_0004_upload_last_used_sql},
      {"results per problem and kernel version", sql::k_0005_results_per_problem_sql},
  };
  return all;
}

int schema_version(SQLite::Database& db) { return db.execAndGet("PRAGMA user_version").getInt(); }

void migrate(SQLite::Database& db, const std::string& label) {
  const int known = static_cast<int>(migrations().size());
  while (true) {
    // IMMEDIATE takes the write lock before reading the version, so two processes opening
    // the same new file cannot both apply the same migration.
    SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
    const int version = schema_version(db);
    if (version > known) {
      throw std::runtime_error("database '" + label + "' has schema version " +
                               std::to_string(version) + " but this ktune knows versions up to " +
                               std::to_string(known) +
                               "; upgrade ktune or point it at another database file");
    }
    if (version == known) return;
    const Migration& next = migrations()[static_cast<size_t>(version)];
    try {
      db.exec(std::string(next.sql));
    } catch (const SQLite::Exception& e) {
      throw std::runtime_error("migration " + std::to_string(version + 1) + " (" +
                               std::string(next.name) + ") failed on '" + label + "': " + e.what());
    }
    db.exec("PRAGMA user_version = " + std::to_string(version + 1));
    transaction.commit();
  }
}

}  // namespace ktune
