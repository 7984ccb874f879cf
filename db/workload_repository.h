#pragma once
// Workloads by exact signature, and their feature vectors for nearest-neighbour reuse.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class WorkloadRepository {
 public:
  explicit WorkloadRepository(Database& db) : db_(db) {}

  // Inserts the workload, or refreshes the stored one with the same signature (an empty
  // description keeps the stored one); returns its id either way. Throws std::invalid_argument
  // when the vector holds a value that is not finite.
  int64_t upsert(const WorkloadRecord& workload);
  std::optional<WorkloadRecord> get(int64_t id);
  std::optional<WorkloadRecord> get_by_signature(const std::string& signature);
  // Every workload of `kind`, in id order.
  std::vector<WorkloadVector> list_vectors(const std::string& kind);

 private:
  Database& db_;
};

}  // namespace ktune
