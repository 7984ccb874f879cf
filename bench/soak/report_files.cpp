#include "bench/soak/report_files.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace ktune::soak {

void write_report(const std::filesystem::path& dir, const std::string& name, const nlohmann::json& json,
                  const std::string& markdown) {
  std::filesystem::create_directories(dir);
  std::ofstream j(dir / (name + ".json"));
  // Answers echoed into the report may hold invalid UTF-8: replaced, never an exception.
  j << json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  std::ofstream md(dir / (name + ".md"));
  md << markdown;
  if (!j || !md) throw std::runtime_error("cannot write the report into " + dir.string());
}

std::string mebibytes(int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace ktune::soak
