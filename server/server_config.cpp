#include "server/server_config.h"

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

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
      {"compile-threads",
       [](ServerConfig& c, const std::string& v) { c.compile_threads = to_int("compile-threads", v, 0, 256); }},
      {"http-threads", [](ServerConfig& c, const std::string& v) { c.http_threads = to_int("http-threads", v, 1, 1024); }},
      {"max-body-mb",
       [](ServerConfig& c, const std::string& v) { c.max_body_bytes = size_t(to_int("max-body-mb", v, 1, 65536)) << 20; }},
      {"max-nnz",
       [](ServerConfig& c, const std::string& v) { c.limits.max_entries = to_int("max-nnz", v, 1, 2000000000); }},
      {"max-rows", [](ServerConfig& c, const std::string& v) {
         c.limits.max_rows = c.limits.max_cols = to_int("max-rows", v, 1, 2000000000);
       }}};
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
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw InputError("config file '" + path + "' is not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw InputError("config file '" + path + "' must hold a JSON object");
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
  for (size_t i = 0; i + 1 < args.size(); i += 2)
    if (args[i] == "--config") apply_file(config, args[i + 1]);
  for (size_t i = 0; i < args.size(); i += 2) {
    const std::string& flag = args[i];
    if (flag.rfind("--", 0) != 0) throw InputError("unexpected argument '" + flag + "'\n" + server_usage());
    if (i + 1 >= args.size()) throw InputError(flag + " needs a value\n" + server_usage());
    if (flag != "--config") apply(config, flag.substr(2), args[i + 1]);
  }
  return config;
}

}  // namespace ktune
