#include "bench/soak/command_line.h"

#include <stdexcept>

namespace ktune::soak {

CommandLine::CommandLine(int argc, char** argv, std::map<std::string, std::string> defaults, const std::string& usage)
    : values_(std::move(defaults)), usage_(usage) {
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag.rfind("--", 0) != 0 || !values_.count(flag.substr(2))) throw std::invalid_argument(usage_);
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value\n" + usage_);
    values_[flag.substr(2)] = argv[i + 1];
  }
}

const std::string& CommandLine::text(const std::string& name) const { return values_.at(name); }

double CommandLine::number(const std::string& name) const {
  try {
    return std::stod(values_.at(name));
  } catch (const std::logic_error&) {
    throw std::invalid_argument("--" + name + " expects a number, got '" + values_.at(name) + "'\n" + usage_);
  }
}

int64_t CommandLine::integer(const std::string& name) const {
  try {
    return std::stoll(values_.at(name));
  } catch (const std::logic_error&) {
    throw std::invalid_argument("--" + name + " expects an integer, got '" + values_.at(name) + "'\n" + usage_);
  }
}

}  // namespace ktune::soak
