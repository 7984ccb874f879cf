#pragma once
// Uploaded matrices, kept as the gzip Matrix Market the client sent so that a job can reload
// them after a restart.
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class UploadRepository {
 public:
  explicit UploadRepository(Database& db) : db_(db) {}

  // Stores the upload unless one with this id exists (then nothing changes). Returns whether
  // it was new, so that the API can answer 201 or 200.
  bool put(const std::string& id, int64_t workload_id, const std::string& content);
  std::optional<UploadRecord> get(const std::string& id);

 private:
  Database& db_;
};

}  // namespace ktune
