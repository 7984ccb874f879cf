#include "clients/progress_bar.h"

#include <algorithm>
#include <cstdio>

namespace ktune {
namespace {

using nlohmann::json;

long count_field(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return 0;
  return object[key].get<long>();
}

std::optional<double> time_field(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return std::nullopt;
  return object[key].get<double>();
}

// done/planned scaled to 0..scale, in integers so that 29/100 shows as 29%, not 28%.
long scaled_fraction(const JobProgress& p, long scale) {
  if (p.planned <= 0) return 0;
  const long done = std::clamp(p.done, 0L, p.planned);
  return static_cast<long>(static_cast<long long>(done) * scale / p.planned);
}

std::string best_text(const JobProgress& p) {
  if (!p.best_us) return "";
  char text[64];
  std::snprintf(text, sizeof text, "best %.2f us %s", *p.best_us,
                p.best_measured ? "measured" : "predicted");
  return std::string(text) + (p.best_config.empty() ? "" : " (" + p.best_config + ")");
}

// "eta 45s", "eta 2m05s"; nothing while unknown or once finished.
std::string eta_text(const JobProgress& p) {
  if (!p.eta_s || *p.eta_s <= 0 || is_finished_state(p.state)) return "";
  const long s = static_cast<long>(*p.eta_s + 0.5);
  char text[48];
  if (s < 60) {
    std::snprintf(text, sizeof text, "eta %lds", s);
  } else {
    std::snprintf(text, sizeof text, "eta %ldm%02lds", s / 60, s % 60);
  }
  return text;
}

std::string text_field(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

}  // namespace

JobProgress job_progress(const json& job) {
  JobProgress p;
  if (job.is_object() && job.contains("state") && job["state"].is_string()) {
    p.state = job["state"].get<std::string>();
  }
  if (job.is_object() && job.contains("progress")) {
    p.done = count_field(job["progress"], "done");
    p.planned = count_field(job["progress"], "planned");
    p.best_config = text_field(job["progress"], "best_config");
    p.eta_s = time_field(job["progress"], "eta_s");
  }
  if (job.is_object() && job.contains("best")) {
    const json& best = job["best"];
    if (auto measured = time_field(best, "measured_us")) {
      p.best_us = measured;
      p.best_measured = true;
    } else {
      p.best_us = time_field(best, "predicted_us");
    }
  }
  if (!p.best_us && job.is_object() && job.contains("progress")) p.best_us = time_field(job["progress"], "best_us");
  return p;
}

std::string render_progress_bar(const JobProgress& p, int width) {
  const long cells = std::max(width, 0);
  const long filled = scaled_fraction(p, cells);
  char counts[64];
  std::snprintf(counts, sizeof counts, "] %3ld%% %ld/%ld", scaled_fraction(p, 100),
                std::max(p.done, 0L), std::max(p.planned, 0L));
  std::string line = "[" + std::string(static_cast<size_t>(filled), '#') +
                     std::string(static_cast<size_t>(cells - filled), '.') + counts;
  const std::string best = best_text(p);
  if (!best.empty()) line += "  " + best;
  const std::string eta = eta_text(p);
  if (!eta.empty()) line += "  " + eta;
  return line + "  " + p.state;
}

std::string render_progress_line(const JobProgress& p) {
  std::string line = p.state + ": " + std::to_string(std::max(p.done, 0L)) + "/" +
                     std::to_string(std::max(p.planned, 0L)) + " done";
  const std::string best = best_text(p);
  if (!best.empty()) line += ", " + best;
  const std::string eta = eta_text(p);
  if (!eta.empty()) line += ", " + eta;
  return line;
}

bool is_finished_state(const std::string& state) {
  return state == "done" || state == "failed" || state == "cancelled";
}

}  // namespace ktune
