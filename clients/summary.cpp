#include "clients/summary.h"

#include <cstdio>

#include "clients/progress_bar.h"
#include "clients/upload_answer.h"

namespace ktune {
namespace {

using nlohmann::json;

std::string value_text(const json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::string field(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return "-";
  return value_text(object[key]);
}

std::string microseconds(const json& value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f us", value.get<double>());
  return text;
}

std::string time_text(const json& answer) {
  const bool measured = answer.contains("measured_us") && answer["measured_us"].is_number();
  const bool predicted = answer.contains("predicted_us") && answer["predicted_us"].is_number();
  if (measured && predicted) {
    return microseconds(answer["measured_us"]) + " measured (predicted " +
           microseconds(answer["predicted_us"]) + ")";
  }
  if (measured) return microseconds(answer["measured_us"]) + " measured";
  if (predicted) return microseconds(answer["predicted_us"]) + " predicted";
  return "-";
}

std::string parameters_text(const json& answer) {
  if (!answer.contains("parameters") || !answer["parameters"].is_object()) return "-";
  std::string text;
  for (const auto& [name, value] : answer["parameters"].items()) {
    if (!text.empty()) text += ' ';
    text += name + "=" + value_text(value);
  }
  return text.empty() ? "-" : text;
}

std::string match_text(const json& answer) {
  std::string text = field(answer, "match");
  if (text == "nearest") {
    text += " (distance " + field(answer, "distance") + " to " + field(answer, "neighbour") + ")";
  }
  return text;
}

// "dram throughput-bound (elasticity 0.58)": what limits the kernel, from the sensitivity
// analysis (the elasticity says how much of a 10% slower resource shows in the kernel time).
std::string bottleneck_text(const json& answer) {
  const json* b = answer.contains("bottleneck") && answer["bottleneck"].is_object() ? &answer["bottleneck"] : nullptr;
  if (!b || !b->contains("resource")) return "-";
  std::string text = field(*b, "resource") + " " + field(*b, "kind") + "-bound";
  const json& s = answer.contains("sensitivity") ? answer["sensitivity"] : json();
  if (s.is_object() && s.contains("bottleneck") && s["bottleneck"].contains("elasticity") &&
      s["bottleneck"]["elasticity"].is_number()) {
    char e[48];
    std::snprintf(e, sizeof e, " (elasticity %.2f)", s["bottleneck"]["elasticity"].get<double>());
    text += e;
  }
  return text;
}

// The fastest vendor algorithm measured beside the answer, and how it compares.
std::string vendor_text(const json& answer) {
  if (!answer.contains("vendor") || !answer["vendor"].is_array()) return "-";
  const json* best = nullptr;
  for (const json& v : answer["vendor"]) {
    const json& m = v.contains("measurement") ? v["measurement"] : json();
    if (!m.is_object() || field(m, "status") != "ok" || !m.contains("median_us") || !m["median_us"].is_number())
      continue;
    if (!best || m["median_us"].get<double>() < (*best)["measurement"]["median_us"].get<double>()) best = &v;
  }
  if (!best) return "-";
  std::string text = field(*best, "name") + " " + microseconds((*best)["measurement"]["median_us"]);
  if (answer.contains("speedup_vs_vendor") && answer["speedup_vs_vendor"].is_number()) {
    char x[32];
    std::snprintf(x, sizeof x, " (ktune %.2fx)", answer["speedup_vs_vendor"].get<double>());
    text += x;
  }
  return text;
}

// The family's untuned default measured beside the answer: what tuning gained.
std::string default_text(const json& answer) {
  const json& d = answer.contains("default") ? answer["default"] : json();
  if (!d.is_object() || !d.contains("measurement") || !d["measurement"].is_object() ||
      field(d["measurement"], "status") != "ok")
    return "-";
  std::string text = microseconds(d["measurement"]["median_us"]);
  if (answer.contains("speedup_vs_default") && answer["speedup_vs_default"].is_number()) {
    char x[32];
    std::snprintf(x, sizeof x, " (tuned %.2fx)", answer["speedup_vs_default"].get<double>());
    text += x;
  }
  return text;
}

// Where a fresh tune's time went ("rank 0.4 s, walk 2.1 s, ..."); "-" for a stored answer.
std::string phases_text(const json& answer) {
  if (!answer.contains("phase_seconds") || !answer["phase_seconds"].is_object() || answer["phase_seconds"].empty())
    return "-";
  std::string text;
  for (const auto& [phase, seconds] : answer["phase_seconds"].items()) {
    if (!seconds.is_number()) continue;
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.1f s", text.empty() ? "" : ", ", phase.c_str(), seconds.get<double>());
    text += part;
  }
  return text.empty() ? "-" : text;
}

std::string padded(std::string text, size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

std::string row(const char* label, const std::string& value) {
  return padded(label, 12) + value + "\n";
}

}  // namespace

std::string summarize_tune_answer(const json& answer) {
  if (!answer.is_object()) return "-\n";
  return row("kernel", field(answer, "kernel") + " (" + field(answer, "dtype") + ")") +
         row("schedule", field(answer, "schedule")) +
         row("parameters", parameters_text(answer)) +
         row("time", time_text(answer)) +
         row("vendor", vendor_text(answer)) +
         row("default", default_text(answer)) +
         row("bottleneck", bottleneck_text(answer)) +
         row("source", field(answer, "source")) +
         row("match", match_text(answer)) +
         row("tune time", phases_text(answer)) +
         row("signature", field(answer, "signature"));
}

std::string summarize_upload(const json& upload) {
  const std::string signature = exact_signature(upload);
  return row("upload", field(upload, "id")) +
         row("size", field(upload, "rows") + " x " + field(upload, "cols") + ", " +
                         field(upload, "nnz") + " nonzeros") +
         row("signature", signature.empty() ? "-" : signature);
}

std::string summarize_job(const json& job) {
  std::string text = row("job", field(job, "id")) +
                     row("progress", render_progress_line(job_progress(job)));
  if (job.is_object() && job.contains("error") && !job["error"].is_null()) {
    text += row("error", value_text(job["error"]));
  }
  if (job.is_object() && job.contains("best") && job["best"].is_object()) {
    text += summarize_tune_answer(job["best"]);
  }
  return text;
}

std::string summarize_kernels(const json& kernels) {
  // {"kernels": [...]} or the bare list; a map keyed by family name reads the same.
  const json families = kernels.is_object() && kernels.contains("kernels") ? kernels["kernels"] : kernels;
  std::string text;
  for (const auto& [key, family] : families.items()) {
    const std::string name = families.is_object() ? key : field(family, "name");
    text += padded(name, 11) + field(family, "description") + "\n";
  }
  return text;
}

}  // namespace ktune

namespace ktune {

std::string summarize_calibration(const json& device) {
  const json calibration = device.is_object() && device.contains("calibration") ? device["calibration"] : json();
  std::string text = "device " + field(device, "id") + " " + field(device, "name") + ": ";
  if (!calibration.is_object()) return text + "not calibrated\n";
  text += "calibrated " + field(calibration, "created_at") + " at " + field(calibration, "clock_ghz") + " GHz\n";
  text += padded("resource", 10) + padded("latency", 12) + "gap (cycles)\n";
  if (!calibration.contains("resources") || !calibration["resources"].is_object()) return text;
  for (const auto& [name, r] : calibration["resources"].items()) {
    char row[64];
    const bool numbers = r.is_object() && r.contains("latency") && r["latency"].is_number() && r.contains("gap") &&
                         r["gap"].is_number();
    if (numbers)
      std::snprintf(row, sizeof row, "%-10s%-12.2f%.3f\n", name.c_str(), r["latency"].get<double>(), r["gap"].get<double>());
    else
      std::snprintf(row, sizeof row, "%-10s-           -\n", name.c_str());
    text += row;
  }
  if (device.contains("applies")) text += field(device, "applies") + "\n";
  return text;
}

}  // namespace ktune
