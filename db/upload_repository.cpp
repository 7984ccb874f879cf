#include "db/upload_repository.h"

#include "db/record_rows.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// Uploads no stored answer's workload and no unfinished job refers to, oldest use first.
constexpr const char* kEvictable =
    "SELECT u.id, u.bytes FROM uploads u"
    " WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.workload_id = u.workload_id)"
    "   AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.state IN ('queued', 'running')"
    "                   AND json_extract(j.request, '$.workload.upload') = u.id)"
    " ORDER BY u.last_used, u.rowid LIMIT 1";

// The use counter's next value: later uses sort after earlier ones, even within a millisecond.
constexpr const char* kNextUse = "(SELECT coalesce(max(last_used), 0) + 1 FROM uploads)";

UploadUsage usage_of(SQLite::Database& c) {
  SQLite::Statement q(c, "SELECT count(*), coalesce(sum(bytes), 0) FROM uploads");
  q.executeStep();
  return {q.getColumn(0).getInt64(), q.getColumn(1).getInt64()};
}

}  // namespace

StoredUpload UploadRepository::put(const std::string& id, int64_t workload_id, const std::string& content,
                                   const UploadQuota& quota) {
  return db_.write([&](SQLite::Database& c) {
    StoredUpload out;
    if (query_int64(c, "SELECT count(*) FROM uploads WHERE id = ?1", id) > 0) return out;
    const auto incoming = static_cast<int64_t>(content.size());
    if (incoming > quota.max_bytes)
      throw LimitError("the upload takes " + std::to_string(incoming) + " bytes compressed, more than the whole upload store (" +
                       std::to_string(quota.max_bytes) + " bytes, --max-upload-mb)");
    UploadUsage used = usage_of(c);
    while (used.uploads + 1 > quota.max_uploads || used.bytes + incoming > quota.max_bytes) {
      SQLite::Statement victim(c, kEvictable);
      if (!victim.executeStep())
        throw LimitError("the upload store is full (" + std::to_string(used.uploads) + " uploads, " +
                         std::to_string(used.bytes) +
                         " bytes) with uploads that stored answers or unfinished jobs need; delete some "
                         "(DELETE /v1/matrices/{id}) or raise --max-uploads / --max-upload-mb");
      const std::string evicted = victim.getColumn(0).getString();
      used.uploads -= 1;
      used.bytes -= victim.getColumn(1).getInt64();
      victim.reset();
      execute(c, "DELETE FROM uploads WHERE id = ?1", evicted);
      out.evicted.push_back(evicted);
    }
    execute(c,
            std::string("INSERT INTO uploads (id, workload_id, content, bytes, last_used) VALUES (?1, ?2, ?3, ?4, ") +
                kNextUse + ")",
            id, workload_id, Blob{content}, incoming);
    out.created = true;
    return out;
  });
}

std::optional<UploadRecord> UploadRepository::get(const std::string& id) {
  return db_.read([&](SQLite::Database& c) {
    SQLite::Statement q(c, "SELECT " + upload_columns("u") + " FROM uploads u WHERE u.id = ?1");
    bind_all(q, id);
    return read_first(q, read_upload);
  });
}

bool UploadRepository::touch(const std::string& id) {
  return db_.write([&](SQLite::Database& c) {
    return execute(c, std::string("UPDATE uploads SET last_used = ") + kNextUse + " WHERE id = ?1", id) > 0;
  });
}

bool UploadRepository::remove(const std::string& id) {
  return db_.write([&](SQLite::Database& c) { return execute(c, "DELETE FROM uploads WHERE id = ?1", id) > 0; });
}

bool UploadRepository::in_use(const std::string& id) {
  return db_.read([&](SQLite::Database& c) {
    return query_int64(c,
                       "SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')"
                       " AND json_extract(request, '$.workload.upload') = ?1",
                       id) > 0;
  });
}

UploadUsage UploadRepository::usage() {
  return db_.read([](SQLite::Database& c) { return usage_of(c); });
}

}  // namespace ktune
