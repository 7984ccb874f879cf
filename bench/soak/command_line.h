#pragma once
// `--name value` flags over a table of defaults. Unknown flags are refused: a typo must not
// silently run a soak or a fuzz with its defaults.
#include <cstdint>
#include <map>
#include <string>

namespace ktune::soak {

class CommandLine {
 public:
  // Throws std::invalid_argument with `usage` for an unknown flag, a missing value or --help.
  CommandLine(int argc, char** argv, std::map<std::string, std::string> defaults, const std::string& usage);

  const std::string& text(const std::string& name) const;
  double number(const std::string& name) const;
  int64_t integer(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
  std::string usage_;
};

}  // namespace ktune::soak
