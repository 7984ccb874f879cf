#pragma once
// Binding and reading the values our records hold that SQLiteCpp does not map by itself:
// optionals as NULL, JSON as text, byte strings as BLOBs.
#include <SQLiteCpp/SQLiteCpp.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ktune {

// SQL for the current UTC time, in the form the schema's defaults write.
inline constexpr const char* kSqlNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

// Marks a byte string to be stored as a BLOB rather than TEXT.
struct Blob {
  const std::string& bytes;
};

void bind_value(SQLite::Statement& statement, int index, int32_t value);
void bind_value(SQLite::Statement& statement, int index, int64_t value);
void bind_value(SQLite::Statement& statement, int index, double value);
void bind_value(SQLite::Statement& statement, int index, bool value);
void bind_value(SQLite::Statement& statement, int index, const char* value);
void bind_value(SQLite::Statement& statement, int index, const std::string& value);
void bind_value(SQLite::Statement& statement, int index, Blob value);

void bind_json(SQLite::Statement& statement, int index, const nlohmann::json& value);

// Only a json argument binds as JSON: many types convert to json implicitly, and a
// string_view bound that way would be stored quoted.
template <typename Json, std::enable_if_t<std::is_same_v<Json, nlohmann::json>, int> = 0>
void bind_value(SQLite::Statement& statement, int index, const Json& value) {
  bind_json(statement, index, value);
}

template <typename T>
void bind_value(SQLite::Statement& statement, int index, const std::optional<T>& value) {
  if (value) {
    bind_value(statement, index, *value);
  } else {
    statement.bind(index);
  }
}

// Binds the arguments to ?1, ?2, ... in order.
template <typename... Values>
void bind_all(SQLite::Statement& statement, const Values&... values) {
  int index = 0;
  (bind_value(statement, ++index, values), ...);
}

// Runs a statement that returns no rows; returns how many rows it changed.
template <typename... Values>
int execute(SQLite::Database& db, const std::string& sql, const Values&... values) {
  SQLite::Statement statement(db, sql);
  bind_all(statement, values...);
  return statement.exec();
}

// The integer in the first column of the first row: an id or a count.
template <typename... Values>
int64_t query_int64(SQLite::Database& db, const std::string& sql, const Values&... values) {
  SQLite::Statement statement(db, sql);
  bind_all(statement, values...);
  if (!statement.executeStep()) throw std::logic_error("no row from: " + sql);
  return statement.getColumn(0).getInt64();
}

// A stored value that does not read back (damaged JSON): names the table and column.
class DamagedValue : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads the columns of the current row left to right, so that a join can read one record
// after another from the same row.
class RowCursor {
 public:
  explicit RowCursor(SQLite::Statement& statement) : statement_(statement) {}

  int64_t int64();
  double real();
  bool boolean();
  std::string text();
  std::string blob();
  nlohmann::json json();
  std::optional<int64_t> optional_int64();
  std::optional<double> optional_real();
  std::optional<std::string> optional_text();
  std::optional<nlohmann::json> optional_json();

 private:
  SQLite::Column next() { return statement_.getColumn(index_++); }
  nlohmann::json parse_json(const SQLite::Column& column) const;
  std::string query_head() const;

  SQLite::Statement& statement_;
  int index_ = 0;
};

}  // namespace ktune
