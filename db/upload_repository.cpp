#include "db/upload_repository.h"

#include "db/record_rows.h"

namespace ktune {

bool UploadRepository::put(const std::string& id, int64_t workload_id, const std::string& content) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c,
                   "INSERT INTO uploads (id, workload_id, content, bytes) VALUES (?1, ?2, ?3, ?4)"
                   " ON CONFLICT (id) DO NOTHING",
                   id, workload_id, Blob{content}, static_cast<int64_t>(content.size())) > 0;
  });
}

std::optional<UploadRecord> UploadRepository::get(const std::string& id) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + upload_columns("u") + " FROM uploads u WHERE u.id = ?1");
    bind_all(q, id);
    return read_first(q, read_upload);
  });
}

}  // namespace ktune
