#pragma once
// Tuned results, one per (workload, kernel, problem, dtype, device): what the service answers with.
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

  // Stores the result as the best for its (workload, kernel, problem, dtype, device),
  // replacing the one there; returns its id, which stays the same across replacements.
  int64_t upsert(const ResultRecord& result);
  std::optional<ResultRecord> get_exact(const std::string& signature, const std::string& kernel,
                                        const std::string& problem, const std::string& dtype,
                                        const std::string& device_fingerprint);
  // Moves `kernel`'s results stored before kernel versions (version '') on `legacy_device_id`
  // to `device_id` with `kernel_version`, unless such a result is there already; returns how many.
  int adopt_legacy(const std::string& kernel, int64_t legacy_device_id, int64_t device_id,
                   const std::string& kernel_version);
  // Every result with its workload and device, ordered by kernel, dtype, workload and device.
  std::vector<ReportRow> list_report();
  // Results of this kernel, problem, dtype and device with their workloads' vectors, to pick
  // the nearest workload from.
  std::vector<NeighbourResult> nearest_candidates(const std::string& kernel, const std::string& problem,
                                                  const std::string& dtype, const std::string& device_fingerprint);

 private:
  Database& db_;
};

}  // namespace ktune
