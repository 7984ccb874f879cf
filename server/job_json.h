#pragma once
// How jobs and the candidates they tried look in the API (docs/api.md): GET /v1/jobs/{id},
// GET /v1/jobs and GET /v1/jobs/{id}/candidates.
#include <nlohmann/json.hpp>

#include "db/records.h"

namespace ktune {

// The job with its best answer so far.
nlohmann::json job_json(const JobRecord& job);
// The same without `best`: a list of jobs stays small however large their answers are.
nlohmann::json job_summary_json(const JobRecord& job);
// A candidate's configuration, prediction and latest measurement (null when unmeasured).
nlohmann::json candidate_json(const CandidateWithMeasurement& listed);

}  // namespace ktune
