#pragma once
// ktuned's settings: defaults, then a JSON config file, then command-line flags.
#include <string>
#include <vector>

#include "workload/matrix_market.h"

namespace ktune {

struct ServerConfig {
  std::string bind = "127.0.0.1";
  int port = 8077;
  std::string db_path = "ktune.db";
  std::string data_dir = ".";
  std::string log_level = "info";
  std::string arch = "";              // empty: the device's, or sm_90 without one
  std::string worker_path = "";       // empty: ktune-measure-worker beside ktuned
  int queue_capacity = 64;            // queued jobs beyond this are refused (503)
  int job_threads = 1;                // jobs run one at a time: they share one GPU
  int compile_threads = 0;            // 0: one per core
  int http_threads = 32;
  size_t compile_cache_entries = 512;
  size_t max_body_bytes = 512ull << 20;
  ReadLimits limits;
};

// Parses `--flag value` pairs; `--config FILE` loads a JSON object with the same names
// (underscores) first. Throws InputError with a usage hint on anything unknown or malformed.
ServerConfig parse_server_config(const std::vector<std::string>& args);
std::string server_usage();

}  // namespace ktune
