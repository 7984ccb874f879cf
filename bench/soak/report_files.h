#pragma once
// A run's results as DIR/NAME.json and DIR/NAME.md, the form bench/ keeps its results in.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace ktune::soak {

void write_report(const std::filesystem::path& dir, const std::string& name, const nlohmann::json& json,
                  const std::string& markdown);

// Bytes as "123.4 MiB" for the summaries.
std::string mebibytes(int64_t bytes);

}  // namespace ktune::soak
