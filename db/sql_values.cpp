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
  // Not copied: a blob (an upload, a cubin) may be hundreds of megabytes, and the bytes
  // outlive the statement's execution, which is all SQLite needs.
  statement.bindNoCopy(index, value.bytes.data(), static_cast<int>(value.bytes.size()));
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

nlohmann::json RowCursor::parse_json(const SQLite::Column& column) const {
  const std::string text = column.getString();
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded())
    // Not the parser's own message: it quotes what it read, kilobytes of kernel source at times.
    throw DamagedValue("column '" + std::string(column.getName()) + "' of a row read by \"" + query_head() + "\" holds " +
                       std::to_string(text.size()) + " bytes that are not valid JSON");
  return value;
}

std::string RowCursor::query_head() const {
  // Enough of the query to name its table: "SELECT ... FROM results r ...".
  const std::string& sql = statement_.getQuery();
  const size_t from = sql.find(" FROM ");
  return from == std::string::npos ? sql.substr(0, 60) : "..." + sql.substr(from, 40) + "...";
}

nlohmann::json RowCursor::json() { return parse_json(next()); }

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
  return parse_json(column);
}

}  // namespace ktune
