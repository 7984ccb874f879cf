#pragma once
// The `ktune` command: runs parsed arguments against a daemon and maps every outcome to an
// exit status (exit_codes.h). Streams and the terminal check come in from outside, so tests
// drive it exactly as main() does.
#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "clients/cli_args.h"

namespace ktune {

struct CliIo {
  std::ostream& out;
  std::ostream& err;
  bool err_is_tty = false;  // redraw a progress bar instead of printing state changes
  std::chrono::milliseconds poll_interval{500};
};

int run_command(const CliArgs& args, CliIo& io);
// Parses `args` (argv without the program name), then runs them.
int run_ktune(const std::vector<std::string>& args, const char* env_server, CliIo& io);

}  // namespace ktune
