#pragma once
// ktuned's settings: defaults, then a JSON config file, then command-line flags.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "workload/read_limits.h"

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
  int job_attempts = 3;               // a job the daemon died under this often is not resumed
  int compile_threads = 0;            // 0: one per core
  // cpp-httplib gives every open connection a thread of its own, idle keep-alive ones too.
  int http_threads = 128;
  // Tunes that hold their connection waiting for the answer, at most this many at once and
  // this long; beyond either the answer is 202 and the client polls the job.
  int max_waiters = 0;  // 0: a quarter of http_threads
  double max_wait_seconds = 60;
  double shutdown_grace_seconds = 3;  // after SIGTERM, exit though jobs still run (they resume)
  size_t compile_cache_entries = 512;
  size_t max_body_bytes = size_t{256} << 20;
  // Stored uploads: beyond either bound the least recently used unpinned ones are evicted.
  int64_t max_uploads = 10000;
  int64_t max_upload_bytes = int64_t{4} << 30;
  std::string auth_token_file;  // bearer token clients must send; required off loopback
  bool insecure = false;        // allow a non-loopback bind without a token
  ReadLimits limits;

  int waiters() const { return max_waiters > 0 ? max_waiters : std::max(1, http_threads / 4); }
};

// Parses `--flag value` pairs (and `--insecure` alone); `--config FILE` loads a JSON object
// with the same names (underscores) first. Throws InputError with a usage hint on anything
// unknown or malformed.
ServerConfig parse_server_config(const std::vector<std::string>& args);
std::string server_usage();

// True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost).
bool is_loopback(const std::string& bind);

}  // namespace ktune
