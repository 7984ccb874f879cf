#pragma once
// How a tuning job's progress is shown while `ktune` waits: a redrawn bar on a terminal,
// one line per state change otherwise (logs, CI). Pure functions of the job's JSON.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ktune {

struct JobProgress {
  std::string state;  // queued | running | done | failed | cancelled
  long done = 0;
  long planned = 0;
  std::optional<double> best_us;  // the best time so far, measured if any, else predicted
  bool best_measured = false;
  std::string best_config;         // its configuration key, when the search reported one
  std::optional<double> eta_s;     // the search's estimate of the time left
};

// Reads GET /v1/jobs/{id}; missing or null fields read as "nothing yet".
JobProgress job_progress(const nlohmann::json& job);

// "[#####.....]  50% 32/64  best 12.50 us measured (block=256;...)  eta 1m05s  running";
// `width` is the bar's cells.
std::string render_progress_bar(const JobProgress& progress, int width);

// "running: 32/64 done, best 12.50 us measured (block=256;...), eta 1m05s"
std::string render_progress_line(const JobProgress& progress);

bool is_finished_state(const std::string& state);

}  // namespace ktune
