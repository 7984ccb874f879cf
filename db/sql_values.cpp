#include "db/sql_values.h"

namespace ktune {

void bind_value(SQLite::Statement& statement, int index, int32_t value) {
  statement.bind(index, value);
}

void bind_value(SQLite::Statement& statement, int index, int64_t value) {
  statement.bind(index, value);
}

void bind_value(SQLite::Statement& statement, int index, double value) {
  statement.bind(index, value);
}

void bind_value(SQLite::Statement& statement, int index, bool value) {
  statement.bind(index, value ? 1 : 0);
}

void bind_value(SQLite::Statement& statement, int index, const char* value) {
  statement.bind(index, value);
}

void bind_value(SQLite::Statement& statement, int index, const std::string& value) {
  statement.bind(index, value);
}

void bind_json(SQLite::Statement& statement, int index, const nlohmann::json& value) {
  statement.bind(index, value.dump());
}

void bind_value(SQLite::Statement& statement, int index, Blob value) {
  statement.bind(index, value.bytes.data(), static_cast<int>(value.bytes.size()));
}

int64_t RowCursor::int64() { return next().getInt64(); }

double RowCursor::real() { return next().getDouble(); }

bool RowCursor::boolean() { return next().getInt() != 0; }

std::string RowCursor::text() { return next().getString(); }

std::string RowCursor::blob() {
  const SQLite::Column column = next();
  // SQLite's rule: ask for the pointer first, then the size of what it points to.
  const auto* data = static_cast<const char*>(column.getBlob());
  const int size = column.getBytes();
  return size > 0 ? std::string(data, static_cast<size_t>(size)) : std::string();
}

nlohmann::json RowCursor::json() { return nlohmann::json::parse(next().getString()); }

std::optional<int64_t> RowCursor::optional_int64() {
  const SQLite::Column column = next();
  if (column.isNull()) return std::nullopt;
  return column.getInt64();
}

std::optional<double> RowCursor::optional_real() {
  const SQLite::Column column = next();
  if (column.isNull()) return std::nullopt;
  return column.getDouble();
}

std::optional<std::string> RowCursor::optional_text() {
  const SQLite::Column column = next();
  if (column.isNull()) return std::nullopt;
  return column.getString();
}

std::optional<nlohmann::json> RowCursor::optional_json() {
  const SQLite::Column column = next();
  if (column.isNull()) return std::nullopt;
  return nlohmann::json::parse(column.getString());
}

}  // namespace ktune
