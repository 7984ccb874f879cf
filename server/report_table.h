#pragma once
// GET /v1/report: every tuned result, as JSON and as an aligned text table for curl.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/records.h"

namespace ktune {

nlohmann::json report_json(const std::vector<ReportRow>& rows);
std::string report_text_table(const std::vector<ReportRow>& rows);

}  // namespace ktune
