#pragma once
// Uploaded matrices, kept as the gzip Matrix Market the client sent so that a job can reload
// them after a restart, within a bounded store: the least recently used uploads that neither
// a stored answer nor an unfinished job needs make room for new ones.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

struct UploadQuota {
  int64_t max_uploads = 0;
  int64_t max_bytes = 0;
};

struct UploadUsage {
  int64_t uploads = 0;
  int64_t bytes = 0;
};

struct StoredUpload {
  bool created = false;              // false: one with this id was there already
  std::vector<std::string> evicted;  // ids removed to make room
};

class UploadRepository {
 public:
  explicit UploadRepository(Database& db) : db_(db) {}

  // Stores the upload unless one with this id exists (then nothing changes), evicting the
  // least recently used evictable uploads while the store would exceed `quota`. LimitError
  // when only uploads that answers or unfinished jobs need would be left to evict.
  StoredUpload put(const std::string& id, int64_t workload_id, const std::string& content, const UploadQuota& quota);
  std::optional<UploadRecord> get(const std::string& id);
  // Marks the upload as used now (a tune named it). False when there is none.
  bool touch(const std::string& id);
  // Removes the upload; false when there is none.
  bool remove(const std::string& id);
  // Whether an unfinished job names this upload.
  bool in_use(const std::string& id);
  UploadUsage usage();

 private:
  Database& db_;
};

}  // namespace ktune
