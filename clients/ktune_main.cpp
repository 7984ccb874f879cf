// `ktune`: the command-line client of ktuned. See `ktune --help` and clients/README.md.
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "clients/cli.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  ktune::CliIo io{std::cout, std::cerr, isatty(STDERR_FILENO) == 1};
  return ktune::run_ktune(args, std::getenv("KTUNE_SERVER"), io);
}
