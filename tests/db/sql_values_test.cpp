#include "db/sql_values.h"

#include <gtest/gtest.h>

#include "db_test_support.h"

namespace ktune {
namespace {

// Binds values, reads them back through RowCursor from an in-memory table of untyped columns.
class SqlValuesTest : public ::testing::Test {
 protected:
  SqlValuesTest() : db_(":memory:", SQLite::OPEN_READWRITE) {
    db_.exec("CREATE TABLE t (a, b, c, d, e)");
  }
  SQLite::Database db_;
};

TEST_F(SqlValuesTest, ValuesRoundTrip) {
  const std::string bytes = dbtest::all_byte_values();
  const nlohmann::json json = {{"x", {1, 2.5, "three"}}, {"nested", {{"ok", true}}}};
  execute(db_, "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)", int64_t{1} << 40, 0.1, true,
          Blob{bytes}, json);
  SQLite::Statement q(db_, "SELECT a, b, c, d, e, typeof(d) FROM t");
  ASSERT_TRUE(q.executeStep());
  RowCursor row(q);
  EXPECT_EQ(row.int64(), int64_t{1} << 40);
  EXPECT_EQ(row.real(), 0.1);
  EXPECT_TRUE(row.boolean());
  EXPECT_EQ(row.blob(), bytes);
  EXPECT_EQ(row.json(), json);
  EXPECT_EQ(row.text(), "blob");
}

TEST_F(SqlValuesTest, EmptyOptionalsAreNullAndReadBackEmpty) {
  execute(db_, "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)", std::optional<int64_t>{},
          std::optional<double>{}, std::optional<std::string>{}, std::optional<nlohmann::json>{},
          std::string());
  SQLite::Statement q(db_, "SELECT a, b, c, d, e, a IS NULL AND b IS NULL AND c IS NULL FROM t");
  ASSERT_TRUE(q.executeStep());
  RowCursor row(q);
  EXPECT_FALSE(row.optional_int64().has_value());
  EXPECT_FALSE(row.optional_real().has_value());
  EXPECT_FALSE(row.optional_text().has_value());
  EXPECT_FALSE(row.optional_json().has_value());
  EXPECT_EQ(row.blob(), "");  // an empty value, which is not NULL
  EXPECT_TRUE(row.boolean());
}

TEST_F(SqlValuesTest, FilledOptionalsReadBackTheirValues) {
  execute(db_, "INSERT INTO t VALUES (?1, ?2, ?3, ?4, NULL)", std::optional<int64_t>{-7},
          std::optional<double>{2.5}, std::optional<std::string>{"text"},
          std::optional<nlohmann::json>{nlohmann::json::array({1, 2})});
  SQLite::Statement q(db_, "SELECT a, b, c, d FROM t");
  ASSERT_TRUE(q.executeStep());
  RowCursor row(q);
  EXPECT_EQ(row.optional_int64(), -7);
  EXPECT_EQ(row.optional_real(), 2.5);
  EXPECT_EQ(row.optional_text(), "text");
  EXPECT_EQ(row.optional_json(), nlohmann::json::array({1, 2}));
}

TEST_F(SqlValuesTest, ExecuteCountsChangedRowsAndQueryInt64ReadsTheFirstColumn) {
  for (int i = 0; i < 4; ++i) execute(db_, "INSERT INTO t (a) VALUES (?1)", i);
  EXPECT_EQ(execute(db_, "UPDATE t SET b = 1 WHERE a >= ?1", 2), 2);
  EXPECT_EQ(query_int64(db_, "SELECT sum(a) FROM t WHERE b = ?1", 1), 5);
  EXPECT_THROW(query_int64(db_, "SELECT a FROM t WHERE a > ?1", 100), std::logic_error);
}

}  // namespace
}  // namespace ktune
