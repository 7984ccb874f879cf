#include "server/server_config.h"

#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "server/json_body.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

using Setter = std::function<void(ServerConfig&, const std::string&)>;

int to_int(const std::string& name, const std::string& v, int lo, int hi) {
  try {
    size_t used = 0;
    const long n = std::stol(v, &used);
    if (used == v.size() && n >= lo && n <= hi) return static_cast<int>(n);
  } catch (const std::exception&) {
  }
  throw InputError("--" + name + " expects an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                   ", got '" + v + "'");
}

double to_number(const std::string& name, const std::string& v, double lo, double hi) {
  try {
    size_t used = 0;
    const double n = std::stod(v, &used);
    if (used == v.size() && n >= lo && n <= hi) return n;
  } catch (const std::exception&) {
  }
  throw InputError("--" + name + " expects a number in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" +
                   v + "'");
}

int64_t to_int64(const std::string& name, const std::string& v, int64_t lo, int64_t hi) {
  const double n = to_number(name, v, static_cast<double>(lo), static_cast<double>(hi));
  if (n != static_cast<double>(static_cast<int64_t>(n))) throw InputError("--" + name + " expects an integer, got '" + v + "'");
  return static_cast<int64_t>(n);
}

bool to_bool(const std::string& name, const std::string& v) {
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  throw InputError("--" + name + " expects true or false, got '" + v + "'");
}

// Flags that stand alone on the command line mean "true".
const std::set<std::string> kSwitches = {"insecure"};

const std::map<std::string, Setter>& setters() {
  static const std::map<std::string, Setter> table = {
      {"bind", [](ServerConfig& c, const std::string& v) { c.bind = v; }},
      {"port", [](ServerConfig& c, const std::string& v) { c.port = to_int("port", v, 0, 65535); }},
      {"db", [](ServerConfig& c, const std::string& v) { c.db_path = v; }},
      {"data-dir", [](ServerConfig& c, const std::string& v) { c.data_dir = v; }},
      {"log-level", [](ServerConfig& c, const std::string& v) { c.log_level = v; }},
      {"arch", [](ServerConfig& c, const std::string& v) { c.arch = v; }},
      {"worker", [](ServerConfig& c, const std::string& v) { c.worker_path = v; }},
      {"queue", [](ServerConfig& c, const std::string& v) { c.queue_capacity = to_int("queue", v, 1, 100000); }},
      {"job-attempts", [](ServerConfig& c, const std::string& v) { c.job_attempts = to_int("job-attempts", v, 1, 1000); }},
      {"compile-threads",
       [](ServerConfig& c, const std::string& v) { c.compile_threads = to_int("compile-threads", v, 0, 256); }},
      {"http-threads", [](ServerConfig& c, const std::string& v) { c.http_threads = to_int("http-threads", v, 4, 4096); }},
      {"max-waiters", [](ServerConfig& c, const std::string& v) { c.max_waiters = to_int("max-waiters", v, 1, 4096); }},
      {"max-wait-seconds",
       [](ServerConfig& c, const std::string& v) { c.max_wait_seconds = to_number("max-wait-seconds", v, 0, 3600); }},
      {"shutdown-grace-seconds",
       [](ServerConfig& c, const std::string& v) {
         c.shutdown_grace_seconds = to_number("shutdown-grace-seconds", v, 0, 3600);
       }},
      {"max-body-mb",
       [](ServerConfig& c, const std::string& v) { c.max_body_bytes = size_t(to_int("max-body-mb", v, 1, 65536)) << 20; }},
      {"max-uploads", [](ServerConfig& c, const std::string& v) { c.max_uploads = to_int64("max-uploads", v, 1, 1e9); }},
      {"max-upload-mb",
       [](ServerConfig& c, const std::string& v) { c.max_upload_bytes = to_int64("max-upload-mb", v, 1, 1e9) << 20; }},
      {"max-nnz",
       [](ServerConfig& c, const std::string& v) { c.limits.max_entries = to_int64("max-nnz", v, 1, 2000000000); }},
      {"max-rows", [](ServerConfig& c, const std::string& v) {
         c.limits.max_rows = c.limits.max_cols = to_int64("max-rows", v, 1, 2000000000);
       }},
      {"max-rows-per-nnz",
       [](ServerConfig& c, const std::string& v) {
         c.limits.dimension_per_entry = to_int64("max-rows-per-nnz", v, 1, 1000000);
       }},
      {"max-bytes-per-nnz",
       [](ServerConfig& c, const std::string& v) {
         c.limits.bytes_per_entry = static_cast<size_t>(to_int64("max-bytes-per-nnz", v, 16, 1 << 20));
       }},
      {"max-comment-kb",
       [](ServerConfig& c, const std::string& v) {
         // The header must fit the first piece a reader takes (workload/line_chunks.h).
         c.limits.text_slack_bytes = static_cast<size_t>(to_int64("max-comment-kb", v, 1, 16 << 10)) << 10;
       }},
      {"auth-token-file", [](ServerConfig& c, const std::string& v) { c.auth_token_file = v; }},
      {"insecure", [](ServerConfig& c, const std::string& v) { c.insecure = to_bool("insecure", v); }}};
  return table;
}

void apply(ServerConfig& config, const std::string& name, const std::string& value) {
  auto it = setters().find(name);
  if (it == setters().end()) throw InputError("unknown option --" + name + "\n" + server_usage());
  it->second(config, value);
}

void apply_file(ServerConfig& config, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read config file '" + path + "'");
  const std::string text(std::istreambuf_iterator<char>(in), {});
  const nlohmann::json j = parse_json_object(text, "config file '" + path + "'");
  for (const auto& [key, value] : j.items()) {
    std::string name = key;
    for (char& ch : name)
      if (ch == '_') ch = '-';
    apply(config, name, value.is_string() ? value.get<std::string>() : value.dump());
  }
}

}  // namespace

std::string server_usage() {
  std::ostringstream out;
  out << "usage: ktuned [--config FILE] [--OPTION VALUE]...\noptions:";
  for (const auto& [name, setter] : setters()) out << " --" << name;
  out << "\n(a config file is a JSON object with the same names, e.g. {\"port\": 8077, \"data_dir\": \"data\"})";
  return out.str();
}

ServerConfig parse_server_config(const std::vector<std::string>& args) {
  ServerConfig config;
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--config") apply_file(config, args[i + 1]);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag.rfind("--", 0) != 0) throw InputError("unexpected argument '" + flag + "'\n" + server_usage());
    const std::string name = flag.substr(2);
    const bool alone = i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0;
    if (kSwitches.count(name) && alone) {
      apply(config, name, "true");
      continue;
    }
    if (i + 1 >= args.size()) throw InputError(flag + " needs a value\n" + server_usage());
    if (flag != "--config") apply(config, name, args[i + 1]);
    ++i;
  }
  return config;
}

bool is_loopback(const std::string& bind) {
  return bind == "localhost" || bind == "::1" || bind == "[::1]" || bind.rfind("127.", 0) == 0;
}

}  // namespace ktune
