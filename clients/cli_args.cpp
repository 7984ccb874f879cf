#include "clients/cli_args.h"

#include <algorithm>
#include <map>

namespace ktune {
namespace {

using nlohmann::json;

struct CommandSpec {
  Command command;
  std::vector<std::string> options;  // besides --server and --help, which every command takes
};

const std::map<std::string, CommandSpec>& command_specs() {
  static const std::map<std::string, CommandSpec> specs{
      {"upload", {Command::Upload, {"--json"}}},
      {"tune",
       {Command::Tune,
        {"--generator", "--kernel", "--dtype", "--problem", "--m", "--n", "--k", "--batch", "--layout", "--wait",
         "--budget", "--json"}}},
      {"job", {Command::Job, {"--wait", "--json"}}},
      {"cancel", {Command::Cancel, {"--json"}}},
      {"lookup", {Command::Lookup, {"--signature", "--kernel", "--dtype", "--device", "--json"}}},
      {"report", {Command::Report, {"--json"}}},
      {"kernels", {Command::Kernels, {"--json"}}},
      {"calibrate", {Command::Calibrate, {"--device", "--json"}}},
  };
  return specs;
}

bool takes_value(const std::string& option) {
  return option != "--wait" && option != "--json";
}

int parse_port(const std::string& text, const std::string& address) {
  const bool digits = !text.empty() && text.size() <= 5 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const int port = digits ? std::stoi(text) : 0;
  if (port < 1 || port > 65535) {
    throw UsageError("bad server address '" + address + "': the port must be 1..65535");
  }
  return port;
}

long parse_budget(const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 9 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const long budget = digits ? std::stol(text) : 0;
  if (budget < 1) throw UsageError("--budget wants a positive number of measurements, not '" + text + "'");
  return budget;
}

json parse_generator(const std::string& text) {
  json spec = json::parse(text, nullptr, false);
  if (!spec.is_object() || !spec.contains("generator")) {
    throw UsageError("--generator wants a JSON object such as '{\"generator\": \"stencil2d\", \"n\": 512}'");
  }
  return spec;
}

json parse_problem(const std::string& text) {
  json problem = json::parse(text, nullptr, false);
  if (!problem.is_object()) throw UsageError("--problem wants a JSON object such as '{\"sources\": [0]}'");
  return problem;
}

// --m 384 is --problem '{"m": 384}' (merged with --problem's fields): the shape of a dense kernel.
bool is_problem_field(const std::string& option) {
  return option == "--m" || option == "--n" || option == "--k" || option == "--batch" || option == "--layout";
}

void set_problem_field(CliArgs& out, const std::string& option, const std::string& value) {
  if (!out.problem) out.problem = json::object();
  const bool digits = !value.empty() && value.size() <= 18 &&
                      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  // Numbers as numbers, anything else as text: the server says what the field accepts.
  (*out.problem)[option.substr(2)] = digits ? json(std::stoll(value)) : json(value);
}

void apply_option(CliArgs& out, const std::string& option, const std::string& value) {
  if (is_problem_field(option)) return set_problem_field(out, option, value);
  if (option == "--wait") out.wait = true;
  else if (option == "--json") out.json = true;
  else if (option == "--generator") out.generator = parse_generator(value);
  else if (option == "--kernel") out.kernel = value;
  else if (option == "--dtype") out.dtype = value;
  else if (option == "--problem") {
    json given = parse_problem(value);
    if (out.problem) given.update(*out.problem);  // the field flags given so far win
    out.problem = given;
  }
  else if (option == "--signature") out.signature = value;
  else if (option == "--device") out.device = value;
  else if (option == "--budget") out.budget = parse_budget(value);
  out.dtype_given = out.dtype_given || option == "--dtype";
}

void expect_positionals(const std::vector<std::string>& positionals, size_t most,
                        const std::string& command) {
  if (positionals.size() > most) {
    throw UsageError("'" + command + "' does not take '" + positionals[most] + "'");
  }
}

// Exactly one of a FILE or the named alternative option.
void expect_file_or(const CliArgs& args, bool has_alternative, const std::string& command,
                    const std::string& alternative) {
  if (args.file.empty() == has_alternative) return;
  throw UsageError("'" + command + "' takes a FILE or " + alternative + ", " +
                   (has_alternative ? "not both" : "and got neither"));
}

void check_command(CliArgs& args, const std::string& name,
                   const std::vector<std::string>& positionals) {
  switch (args.command) {
    case Command::Upload:
    case Command::Job:
    case Command::Cancel: {
      const char* what = args.command == Command::Upload ? "FILE" : "job ID";
      if (positionals.empty() || positionals[0].empty()) {
        throw UsageError("'" + name + "' needs a " + what);
      }
      expect_positionals(positionals, 1, name);
      (args.command == Command::Upload ? args.file : args.job_id) = positionals[0];
      break;
    }
    case Command::Tune:
      expect_positionals(positionals, 1, name);
      if (!positionals.empty()) args.file = positionals[0];
      // A dense kernel (gemm) has no workload but its problem: neither is fine with a problem.
      if (!(args.file.empty() && !args.generator && args.problem))
        expect_file_or(args, args.generator.has_value(), name, "--generator JSON");
      break;
    case Command::Lookup:
      expect_positionals(positionals, 1, name);
      if (!positionals.empty()) args.file = positionals[0];
      expect_file_or(args, !args.signature.empty(), name, "--signature S");
      break;
    case Command::Report:
    case Command::Kernels:
    case Command::Calibrate:
    case Command::Help:
      expect_positionals(positionals, 0, name);
      break;
  }
  if (args.kernel.empty() || args.dtype.empty()) {
    throw UsageError("--kernel and --dtype must not be empty");
  }
}

}  // namespace

ServerAddress parse_server_address(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    throw UsageError("bad server address '" + text + "': expected host:port");
  }
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return {host, parse_port(text.substr(colon + 1), text)};
}

CliArgs parse_args(const std::vector<std::string>& args, const char* env_server) {
  CliArgs out;
  std::string command_name;
  std::optional<std::string> server;
  std::vector<std::string> positionals;
  const CommandSpec* spec = nullptr;

  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--help" || token == "-h") {
      out.command = Command::Help;
      return out;
    }
    if (token.size() > 1 && token[0] == '-') {
      const size_t equals = token.find('=');
      const std::string option = token.substr(0, equals);
      const bool known = option == "--server" ||
                         (spec && std::count(spec->options.begin(), spec->options.end(), option));
      if (!known) {
        throw UsageError("unknown option '" + option + "'" +
                         (spec ? " for '" + command_name + "'" : std::string()));
      }
      std::string value;
      if (!takes_value(option)) {
        if (equals != std::string::npos) throw UsageError(option + " takes no value");
      } else if (equals != std::string::npos) {
        value = token.substr(equals + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        throw UsageError(option + " needs a value");
      }
      if (option == "--server") server = value;
      else apply_option(out, option, value);
    } else if (!spec) {
      const auto found = command_specs().find(token);
      if (found == command_specs().end()) throw UsageError("unknown command '" + token + "'");
      command_name = token;
      spec = &found->second;
      out.command = spec->command;
    } else {
      positionals.push_back(token);
    }
  }
  if (!spec) throw UsageError("no command given");
  check_command(out, command_name, positionals);

  if (server) {
    out.server = parse_server_address(*server);
  } else if (env_server && *env_server) {
    try {
      out.server = parse_server_address(env_server);
    } catch (const UsageError& e) {
      throw UsageError(std::string("KTUNE_SERVER: ") + e.what());
    }
  } else {
    out.server = parse_server_address(kDefaultServer);
  }
  return out;
}

std::string usage_text() {
  return R"(usage: ktune [--server HOST:PORT] COMMAND [OPTIONS]

Talks to a ktuned daemon (default $KTUNE_SERVER, else 127.0.0.1:8077).

commands:
  upload FILE                   upload a Matrix Market file (.mtx or .mtx.gz)
  tune FILE|--generator JSON    tune a kernel for an uploaded FILE or a generated workload
       [--kernel K] [--dtype D] [--problem JSON] [--wait] [--budget N]
                                K defaults to spmv, D to the kernel's first dtype (f32 for
                                spmv); JSON is its problem, e.g. '{"sources": [0]}' for bfs;
                                N caps the measurements; --wait follows the job to its end
                                with a progress display
  tune --kernel gemm --m M --n N --k K [--batch B] [--layout nn|nt|tn|tt] [--dtype bf16]
                                a dense kernel: no FILE, its workload is its problem's shape
                                (--m/--n/--k/--batch/--layout are fields of --problem)
  job ID [--wait]               show a tuning job, or follow it to its end
  cancel ID                     cancel a queued or running job
  lookup FILE|--signature S     the stored answer for a workload, without tuning
       [--kernel K] [--dtype D] [--device FINGERPRINT]
  report                        the table of tuned results
  kernels                       the kernel families and their parameter spaces
  calibrate [--device ID]       time the emulator's microbenchmarks on the daemon's GPU (about a
                                minute) and store its resource table; ID defaults to "this"

options:
  --server HOST:PORT            the daemon to talk to
  --json                        print the server's raw JSON instead of a summary
  --help, -h                    this text

exit status:
  0  success
  2  usage error (bad arguments, or a FILE that cannot be read)
  3  server unreachable
  4  request rejected by the server (HTTP 4xx)
  5  server error (HTTP 5xx, or a malformed answer)
  6  job failed or was cancelled
  7  lookup found nothing stored for the workload
)";
}

}  // namespace ktune
