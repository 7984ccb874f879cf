#pragma once
// Versioned schema migrations. PRAGMA user_version counts the migrations a database has had;
// each pending one runs in its own transaction, so a crash leaves a consistent version.
#include <string>
#include <string_view>
#include <vector>

namespace SQLite {
class Database;
}

namespace ktune {

struct Migration {
  std::string_view name;
  std::string_view sql;
};

// In the order they apply; entries are only ever appended.
const std::vector<Migration>& migrations();

int schema_version(SQLite::Database& db);

// Applies the pending migrations; a no-op on an up-to-date database. Throws when the database
// comes from a newer ktune (more migrations than this build knows); `label` names it there.
void migrate(SQLite::Database& db, const std::string& label);

}  // namespace ktune
