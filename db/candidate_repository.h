#pragma once
// The configurations a job considered, one per (job, canonical config), with the prediction
// and compiled kernel that belong to each.
#include <cstdint>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/records.h"

namespace ktune {

class CandidateRepository {
 public:
  explicit CandidateRepository(Database& db) : db_(db) {}

  // Adds the candidate, or finds the job's one with the same config_key; returns its id.
  // On a repeat, a kernel_key or predicted_us given now fills in the stored one; the rest of
  // the stored candidate stays.
  int64_t add(const CandidateRecord& candidate);
  // The job's candidates in the order they were added.
  std::vector<CandidateRecord> list_for_job(const std::string& job_id);
  // The same, each with its latest measurement if it has one: what a job tried, what the model
  // predicted for it and what it measured, in one read.
  std::vector<CandidateWithMeasurement> list_with_measurements(const std::string& job_id);

 private:
  Database& db_;
};

}  // namespace ktune
