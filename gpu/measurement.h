#pragma once
// What a measurement is asked to do and what it reports; shared by the daemon (Measurer),
// the wire protocol and the worker's harness.
#include <nlohmann/json.hpp>
#include <string>

namespace ktune {

struct MeasureOptions {
  bool hot = false;        // keep L2 warm between runs instead of flushing it
  int warmup = 2;          // untimed runs before timing
  int min_runs = 10;       // timed runs before the stopping rule is consulted
  int max_runs = 200;
  double max_seconds = 2.0;               // wall-clock cap of one measurement, warm-up included
  double target_rel_halfwidth = 0.02;     // stop once the median's 95% CI half-width is this small
  double kernel_timeout_s = 10;           // no sign of progress for this long: the kernel hung

  // Throws InputError naming the first option out of range.
  void validate() const;
  nlohmann::json to_json() const;
  static MeasureOptions from_json(const nlohmann::json& j);
};

enum class MeasureStatus { Ok, VerifyFailed, Fault, Timeout, LaunchError };

const char* to_string(MeasureStatus status);        // "ok", "verify_failed", "fault", "timeout", "launch_error"
MeasureStatus measure_status_from_string(const std::string& s);  // throws InputError

struct Measurement {
  MeasureStatus status = MeasureStatus::LaunchError;
  double median_us = 0, iqr_us = 0;
  int count = 0;
  double max_rel_error = 0;  // see gpu/measure_verification.h for what it is relative to
  std::string message;       // why it failed; for Ok, a note when the CI target was not reached

  nlohmann::json to_json() const;
  static Measurement from_json(const nlohmann::json& j);
};

}  // namespace ktune
