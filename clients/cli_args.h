#pragma once
// The `ktune` command line, parsed into a plain struct so that it can be tested without
// a server, a terminal or the environment.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune {

enum class Command { Help, Upload, Tune, Job, Cancel, Lookup, Report, Kernels, Calibrate };

struct ServerAddress {
  std::string host;
  int port = 0;
};

struct CliArgs {
  Command command = Command::Help;
  ServerAddress server;
  std::string file;                         // upload; tune and lookup when given a FILE
  std::optional<nlohmann::json> generator;  // tune --generator
  std::string signature;                    // lookup --signature
  std::string job_id;                       // job, cancel
  std::string kernel = "spmv";
  std::string dtype = "f32";
  bool dtype_given = false;                 // tune sends --dtype only when given: else the kernel's own
  std::optional<nlohmann::json> problem;    // tune --problem: the family's parameters
  std::optional<std::string> device;  // lookup --device: another device's fingerprint; calibrate --device: an id
  std::optional<long> budget;         // tune --budget: measurements
  bool wait = false;
  bool json = false;
};

// The command line is wrong; the message says how.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr const char* kDefaultServer = "127.0.0.1:8077";

// `args` excludes the program name; `env_server` is $KTUNE_SERVER, or null when unset.
CliArgs parse_args(const std::vector<std::string>& args, const char* env_server);
// "host:port", or "[v6 address]:port".
ServerAddress parse_server_address(const std::string& text);
std::string usage_text();

}  // namespace ktune
