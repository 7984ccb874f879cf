#include "server/report_table.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ktune {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The fastest vendor time stored with a result, if any.
std::optional<double> best_vendor_us(const ResultRecord& r) {
  if (!r.vendor || !r.vendor->is_array()) return std::nullopt;
  std::optional<double> best;
  for (const auto& v : *r.vendor)
    if (v.contains("median_us") && (!best || v["median_us"].get<double>() < *best)) best = v["median_us"].get<double>();
  return best;
}

// The answer's schedule, or "-": families without a schedule parameter store null.
std::string schedule_text(const ResultRecord& r) {
  const auto it = r.answer.find("schedule");
  return it != r.answer.end() && it->is_string() ? it->get<std::string>() : "-";
}

}  // namespace

nlohmann::json report_json(const std::vector<ReportRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const ReportRow& row : rows) {
    const ResultRecord& r = row.result;
    // Stored canonical by Problem::key(); a value that no longer parses shows as null.
    const nlohmann::json problem = nlohmann::json::parse(r.problem, nullptr, false);
    nlohmann::json j = {{"workload", row.workload.description},
                        {"signature", row.workload.signature},
                        {"rows", row.workload.rows},
                        {"nnz", row.workload.nnz},
                        {"kernel", r.kernel},
                        {"dtype", r.dtype},
                        {"problem", problem.is_object() ? problem : nlohmann::json()},
                        {"device", row.device.name},
                        {"schedule", r.answer.value("schedule", nlohmann::json())},
                        {"config", r.config},
                        {"source", to_string(r.source)},
                        {"predicted_us", r.predicted_us},
                        {"measured_us", r.measured_us ? nlohmann::json(*r.measured_us) : nlohmann::json()},
                        {"vendor", r.vendor ? *r.vendor : nlohmann::json()},
                        {"job", r.job_id ? nlohmann::json(*r.job_id) : nlohmann::json()},
                        {"updated_at", r.updated_at}};
    if (auto v = best_vendor_us(r); v && r.measured_us) j["speedup_vs_vendor"] = *v / *r.measured_us;
    out.push_back(j);
  }
  return {{"results", out}};
}

std::string report_text_table(const std::vector<ReportRow>& rows) {
  const std::vector<std::string> header = {"workload", "rows", "nnz", "kernel", "dtype", "schedule",
                                           "source", "pred_us", "meas_us", "vendor_us", "speedup", "device"};
  std::vector<std::vector<std::string>> table = {header};
  for (const ReportRow& row : rows) {
    const ResultRecord& r = row.result;
    const std::optional<double> vendor = best_vendor_us(r);
    table.push_back({row.workload.description.empty() ? row.workload.signature.substr(0, 12) : row.workload.description,
                     std::to_string(row.workload.rows), std::to_string(row.workload.nnz), r.kernel, r.dtype,
                     schedule_text(r), to_string(r.source), fixed(r.predicted_us, 2),
                     r.measured_us ? fixed(*r.measured_us, 2) : "-", vendor ? fixed(*vendor, 2) : "-",
                     vendor && r.measured_us ? fixed(*vendor / *r.measured_us, 2) + "x" : "-", row.device.name});
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& line : table)
    for (size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  std::ostringstream out;
  for (const auto& line : table) {
    for (size_t i = 0; i < line.size(); ++i) {
      out << line[i];
      if (i + 1 < line.size()) out << std::string(width[i] - line[i].size() + 2, ' ');
    }
    out << "\n";
  }
  if (rows.empty()) out << "(no tuned results yet)\n";
  return out.str();
}

}  // namespace ktune
