#include "model/calibration/calibration.h"

#include <cmath>

#include "workload/input_error.h"

namespace ktune {
namespace {

double positive(const nlohmann::json& j, const std::string& where) {
  if (!j.is_number() || !std::isfinite(j.get<double>()) || j.get<double>() <= 0)
    throw InputError("calibration: '" + where + "' must be a positive number");
  return j.get<double>();
}

const nlohmann::json& field(const nlohmann::json& j, const std::string& name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw InputError("calibration: '" + where + name + "' is missing");
  return j.at(name);
}

}  // namespace

nlohmann::json Calibration::to_json() const {
  nlohmann::json resources = nlohmann::json::object();
  for (size_t i = 0; i < kResourceCount; ++i) {
    resources[resource_name(static_cast<Resource>(i))] = {{"latency", timing[i].latency},
                                                           {"gap", timing[i].gap},
                                                           {"latency_method", latency_method[i]},
                                                           {"gap_method", gap_method[i]}};
  }
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const BenchmarkRun& r : runs) {
    benchmarks.push_back({{"name", r.name},
                          {"units", {r.units[0], r.units[1]}},
                          {"us", {r.us[0], r.us[1]}},
                          {"per_unit", r.per_unit}});
  }
  return {{"version", 1},
          {"fingerprint", fingerprint},
          {"device", device},
          {"arch", arch},
          {"sms", sms},
          {"schedulers_per_sm", schedulers_per_sm},
          {"clock_ghz", clock_ghz},
          {"reported_clock_ghz", reported_clock_ghz},
          {"created_at", created_at},
          {"units", "latency: cycles between dependent issues; gap: cycles between admissions, per warp "
                    "scheduler for int_alu, fp32, fp64, sfu, branch, issue and per SM for the others; per "
                    "warp instruction, per 32-byte sector for l1, l2, dram, per request (a line's sectors of "
                    "one access) for l2_tag, per address for atomic; extras "
                    "per SM except atomic_same_address_gap (device-wide, per thread's atomic)"},
          {"resources", resources},
          {"extras", extras},
          {"benchmarks", benchmarks}};
}

Calibration Calibration::from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw InputError("calibration: expected a JSON object");
  Calibration c;
  c.fingerprint = field(j, "fingerprint", "").get<std::string>();
  c.device = j.value("device", "");
  c.arch = field(j, "arch", "").get<std::string>();
  c.sms = j.value("sms", 0);
  c.schedulers_per_sm = j.value("schedulers_per_sm", 0);
  c.clock_ghz = positive(field(j, "clock_ghz", ""), "clock_ghz");
  c.reported_clock_ghz = j.value("reported_clock_ghz", 0.0);
  c.created_at = j.value("created_at", "");
  const nlohmann::json& resources = field(j, "resources", "");
  for (size_t i = 0; i < kResourceCount; ++i) {
    const std::string name = resource_name(static_cast<Resource>(i));
    if (static_cast<Resource>(i) == Resource::L2Tag && !resources.contains(name)) continue;  // below
    const nlohmann::json& r = field(resources, name, "resources.");
    c.timing[i].latency = positive(field(r, "latency", "resources." + name + "."), "resources." + name + ".latency");
    c.timing[i].gap = positive(field(r, "gap", "resources." + name + "."), "resources." + name + ".gap");
    c.latency_method[i] = r.value("latency_method", "");
    c.gap_method[i] = r.value("gap_method", "");
  }
  if (j.contains("extras")) c.extras = j.at("extras").get<std::map<std::string, double>>();
  // Calibrations stored before the L2 tag pipe had its own row measured it as the gather benchmark.
  if (!resources.contains(resource_name(Resource::L2Tag))) {
    const auto gather = c.extras.find("l2_gather_gap");
    if (gather == c.extras.end())
      throw InputError("calibration: 'resources.l2_tag' is missing, and so is extras.l2_gather_gap to derive it");
    const size_t tag = static_cast<size_t>(Resource::L2Tag), l2 = static_cast<size_t>(Resource::L2);
    c.timing[tag] = {c.timing[l2].latency, gather->second};
    c.latency_method[tag] = c.latency_method[l2];
    c.gap_method[tag] = "derived: extras.l2_gather_gap, per request";
  }
  if (j.contains("benchmarks")) {
    for (const nlohmann::json& b : j.at("benchmarks")) {
      BenchmarkRun r;
      r.name = b.at("name").get<std::string>();
      for (int k = 0; k < 2; ++k) {
        r.units[k] = b.at("units").at(k).get<double>();
        r.us[k] = b.at("us").at(k).get<double>();
      }
      r.per_unit = b.at("per_unit").get<double>();
      c.runs.push_back(r);
    }
  }
  return c;
}

void apply_calibration(GpuSpec& spec, const Calibration& calibration) {
  if (calibration.arch != spec.arch)
    throw InputError("calibration of " + calibration.arch + " (" + calibration.device + ") cannot describe a " +
                     spec.arch + " GPU");
  spec.timing = calibration.timing;
  spec.timing_source = "calibrated " + calibration.fingerprint;
  spec.clock_ghz = calibration.clock_ghz;
  // Calibrations from before the block dispatch benchmark keep the table's figure.
  if (const auto it = calibration.extras.find("block_dispatch_gap"); it != calibration.extras.end())
    spec.block_dispatch_cycles = it->second;
  // Likewise the gather benchmarks: each level's weight against its own streamed gap.
  const auto weight = [&](const char* gather, Resource level, double& w) {
    if (const auto it = calibration.extras.find(gather); it != calibration.extras.end())
      w = line_weight_from_gaps(it->second, timing(calibration.timing, level).gap);
  };
  weight("l1_gather_gap", Resource::L1, spec.line_weights.l1);
  weight("dram_gather_gap", Resource::Dram, spec.line_weights.dram);
}

}  // namespace ktune
