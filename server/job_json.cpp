#include "server/job_json.h"

namespace ktune {
namespace {

nlohmann::json optional_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// done/planned always; the search's own fields (docs/api.md) once it reported them.
nlohmann::json progress_json(const JobRecord& j) {
  nlohmann::json progress = {{"done", j.progress_done}, {"planned", j.progress_planned}};
  if (j.search_state && j.search_state->contains("progress"))
    for (const auto& [key, value] : (*j.search_state)["progress"].items()) progress[key] = value;
  return progress;
}

nlohmann::json measurement_json(const MeasurementRecord& m) {
  return {{"status", to_string(m.status)},
          {"median_us", optional_json(m.median_us)},
          {"iqr_us", optional_json(m.iqr_us)},
          {"count", m.count},
          {"max_rel_error", optional_json(m.max_rel_error)},
          {"message", m.message},
          {"hot", m.hot},
          {"created_at", m.created_at}};
}

}  // namespace

nlohmann::json job_summary_json(const JobRecord& j) {
  return {{"id", j.id},
          {"state", to_string(j.state)},
          {"progress", progress_json(j)},
          {"error", j.error ? nlohmann::json(*j.error) : nlohmann::json()},
          {"request", j.request},
          {"created_at", j.created_at},
          {"updated_at", j.updated_at}};
}

nlohmann::json job_json(const JobRecord& j) {
  nlohmann::json job = job_summary_json(j);
  job["best"] = j.best ? *j.best : nlohmann::json();
  return job;
}

nlohmann::json candidate_json(const CandidateWithMeasurement& listed) {
  const CandidateRecord& c = listed.candidate;
  return {{"id", c.id},
          {"config", c.config},
          {"config_key", c.config_key},
          {"predicted_us", optional_json(c.predicted_us)},
          {"measurement", listed.measurement ? measurement_json(*listed.measurement) : nlohmann::json()}};
}

}  // namespace ktune
