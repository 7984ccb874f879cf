#pragma once
// Measurements of candidates, committed one by one as they land so that a crash loses none.
#include <cstdint>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class MeasurementRepository {
 public:
  explicit MeasurementRepository(Database& db) : db_(db) {}

  // Returns the new measurement's id. Throws when its candidate does not exist.
  int64_t add(const MeasurementRecord& measurement);
  // The job's measurements with their candidates, in the order they were taken.
  std::vector<MeasuredCandidate> list_for_job(const std::string& job_id);
  int64_t count_for_job(const std::string& job_id);

 private:
  Database& db_;
};

}  // namespace ktune
