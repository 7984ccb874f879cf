#include "gpu/ptxas_info.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace ktune {
namespace {

// The comma-separated items of a "Used N registers, ..." line; the set of items varies
// with architecture and ptxas version (barriers, smem, cmem[k], cumulative stack size).
void read_used_line(const std::string& items, ResourceUsage& usage) {
  static const std::regex item(R"((\d+) (registers|bytes smem|bytes cmem\[\d+\]|bytes cumulative stack size))");
  for (std::sregex_iterator it(items.begin(), items.end(), item), end; it != end; ++it) {
    const int value = std::stoi((*it)[1]);
    const std::string what = (*it)[2];
    if (what == "registers") {
      usage.registers = value;
    } else if (what == "bytes smem") {
      usage.shared_bytes = value;
    } else if (what == "bytes cumulative stack size") {
      // Includes the frames of called functions, which the entry's own frame line omits.
      usage.stack_bytes = std::max(usage.stack_bytes, value);
    } else {
      usage.constant_bytes += value;
    }
  }
}

}  // namespace

std::map<std::string, ResourceUsage> parse_ptxas_info(const std::string& log) {
  static const std::regex compiling_entry(R"(Compiling entry function '([^']+)')");
  static const std::regex properties_for(R"(Function properties for (\S+))");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(: Used (.*))");

  std::map<std::string, ResourceUsage> result;
  // "Used" lines belong to the entry being compiled; frame lines to the function named by
  // the "Function properties" line before them, which may be a non-entry device function.
  ResourceUsage* compiling = nullptr;
  ResourceUsage* described = nullptr;
  std::istringstream lines(log);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, compiling_entry)) {
      compiling = &result[m[1]];
    } else if (std::regex_search(line, m, properties_for)) {
      auto found = result.find(m[1]);
      described = found == result.end() ? nullptr : &found->second;
    } else if (std::regex_search(line, m, frame)) {
      if (described) {
        described->stack_bytes = std::max(described->stack_bytes, std::stoi(m[1]));
        described->spill_stores = std::stoi(m[2]);
        described->spill_loads = std::stoi(m[3]);
      }
    } else if (compiling && std::regex_search(line, m, used)) {
      read_used_line(m[1], *compiling);
    }
  }
  return result;
}

}  // namespace ktune
