#include "gpu/measurement.h"

#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr std::array<std::pair<MeasureStatus, const char*>, 5> kStatusNames = {{
    {MeasureStatus::Ok, "ok"},
    {MeasureStatus::VerifyFailed, "verify_failed"},
    {MeasureStatus::Fault, "fault"},
    {MeasureStatus::Timeout, "timeout"},
    {MeasureStatus::LaunchError, "launch_error"},
}};

void require(bool holds, const std::string& message) {
  if (!holds) throw InputError("measurement option " + message);
}

}  // namespace

void MeasureOptions::validate() const {
  require(warmup >= 0 && warmup <= 1000, "warmup must be between 0 and 1000");
  require(min_runs >= 1, "min_runs must be at least 1");
  require(max_runs >= min_runs && max_runs <= 100000, "max_runs must be between min_runs and 100000");
  require(std::isfinite(max_seconds) && max_seconds > 0 && max_seconds <= 600,
          "max_seconds must be above 0 and at most 600");
  require(std::isfinite(target_rel_halfwidth) && target_rel_halfwidth > 0 && target_rel_halfwidth < 1,
          "target_rel_halfwidth must be between 0 and 1");
  require(std::isfinite(kernel_timeout_s) && kernel_timeout_s > 0 && kernel_timeout_s <= 3600,
          "kernel_timeout_s must be above 0 and at most 3600");
}

nlohmann::json MeasureOptions::to_json() const {
  return {{"hot", hot},
          {"warmup", warmup},
          {"min_runs", min_runs},
          {"max_runs", max_runs},
          {"max_seconds", max_seconds},
          {"target_rel_halfwidth", target_rel_halfwidth},
          {"kernel_timeout_s", kernel_timeout_s}};
}

MeasureOptions MeasureOptions::from_json(const nlohmann::json& j) {
  MeasureOptions o;
  o.hot = j.at("hot").get<bool>();
  o.warmup = j.at("warmup").get<int>();
  o.min_runs = j.at("min_runs").get<int>();
  o.max_runs = j.at("max_runs").get<int>();
  o.max_seconds = j.at("max_seconds").get<double>();
  o.target_rel_halfwidth = j.at("target_rel_halfwidth").get<double>();
  o.kernel_timeout_s = j.at("kernel_timeout_s").get<double>();
  return o;
}

const char* to_string(MeasureStatus status) {
  for (const auto& [s, name] : kStatusNames) {
    if (s == status) return name;
  }
  return "unknown";
}

MeasureStatus measure_status_from_string(const std::string& text) {
  for (const auto& [s, name] : kStatusNames) {
    if (text == name) return s;
  }
  throw InputError("unknown measurement status '" + text + "'");
}

nlohmann::json Measurement::to_json() const {
  return {{"status", to_string(status)}, {"median_us", median_us}, {"iqr_us", iqr_us},
          {"count", count},             {"max_rel_error", max_rel_error}, {"message", message}};
}

Measurement Measurement::from_json(const nlohmann::json& j) {
  Measurement m;
  m.status = measure_status_from_string(j.at("status").get<std::string>());
  m.median_us = j.at("median_us").get<double>();
  m.iqr_us = j.at("iqr_us").get<double>();
  m.count = j.at("count").get<int>();
  // JSON has no infinity: a non-finite error travels as null.
  const nlohmann::json& error = j.at("max_rel_error");
  m.max_rel_error = error.is_number() ? error.get<double>() : std::numeric_limits<double>::infinity();
  m.message = j.at("message").get<std::string>();
  return m;
}

}  // namespace ktune
