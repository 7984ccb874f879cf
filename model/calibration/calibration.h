#pragma once
// A measured resource table of one device (issue 4, part 2): what the microbenchmarks of
// model/calibration/microbenchmarks.h found, stored per device fingerprint and applied to the
// GpuSpec the service predicts with.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/gpu_spec.h"
#include "model/resource.h"

namespace ktune {

// One microbenchmark's two timed runs and what their slope gave.
struct BenchmarkRun {
  std::string name;          // "fp32_latency"
  double units[2] = {0, 0};  // work at the two lengths (operations, sectors, cycles...)
  double us[2] = {0, 0};     // median kernel times, microseconds
  double per_unit = 0;       // cycles per unit (GHz for the clock benchmark)
};

struct Calibration {
  std::string fingerprint;  // the device's (DESIGN.md, "Signatures")
  std::string device;       // its name
  std::string arch;         // "sm_90"
  int sms = 0;
  int schedulers_per_sm = 0;      // per-scheduler gaps are per-SM gaps times this
  double clock_ghz = 0;           // measured SM clock the cycle counts are in
  double reported_clock_ghz = 0;  // what the driver reports as the maximum
  std::string created_at;         // ISO 8601, UTC
  ResourceTable timing{};
  // Per resource: how its latency and its gap were obtained ("measured: ..." or "derived: ...").
  std::array<std::string, kResourceCount> latency_method{}, gap_method{};
  std::map<std::string, double> extras;  // measured figures outside the table (shuffles, ...)
  std::vector<BenchmarkRun> runs;

  nlohmann::json to_json() const;
  // Throws InputError naming the first missing or invalid field: every resource must have a
  // finite, positive latency and gap.
  static Calibration from_json(const nlohmann::json& j);
};

// spec.timing = the measured table, timing_source = "calibrated <fingerprint>", and the clock
// the cycles were counted at. Throws InputError when the calibration is of another architecture.
void apply_calibration(GpuSpec& spec, const Calibration& calibration);

}  // namespace ktune
