#pragma once
// The benchmark programs' "--flag VALUE" options.
#include <stdexcept>
#include <string>

namespace ktune::bench {

// The value after argv[i], the flag, advancing i past it.
inline std::string option_value(int argc, char** argv, int& i) {
  const std::string flag = argv[i];
  if (i + 1 >= argc) throw std::runtime_error(flag + " needs a value");
  return argv[++i];
}

}  // namespace ktune::bench
