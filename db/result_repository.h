#pragma once
// Tuned results, one per (workload, kernel, dtype, device): what the service answers with.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class ResultRepository {
 public:
  explicit ResultRepository(Database& db) : db_(db) {}

  // Stores the result as the best for its (workload, kernel, dtype, device), replacing the one
  // there; returns its id, which stays the same across replacements.
  int64_t upsert(const ResultRecord& result);
  std::optional<ResultRecord> get_exact(const std::string& signature, const std::string& kernel,
                                        const std::string& dtype,
                                        const std::string& device_fingerprint);
  // Every result with its workload and device, ordered by kernel, dtype, workload and device.
  std::vector<ReportRow> list_report();
  // Results of this kernel, dtype and device with their workloads' vectors, to pick the
  // nearest workload from.
  std::vector<NeighbourResult> nearest_candidates(const std::string& kernel,
                                                  const std::string& dtype,
                                                  const std::string& device_fingerprint);

 private:
  Database& db_;
};

}  // namespace ktune
