#pragma once
// The daemon's stops and crashes over a run: when, how (SIGTERM or SIGKILL), how long it took
// to exit and how it exited; a crash keeps the end of the daemon's log. A stop asked by SIGTERM
// must be a clean exit within the limit; a crash is always a failure.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/soak/daemon_process.h"

namespace ktune::soak {

class DaemonEvents {
 public:
  // `at` is seconds since the run began; `why` says what the stop was for ("scheduled restart").
  void stopped(double at, const std::string& why, const DaemonExit& exit);
  // `cause` names what was in flight, if known (the fuzzed request).
  void crashed(double at, const DaemonExit& exit, const std::string& cause, const std::string& log_tail);

  size_t crashes() const { return crashes_.size(); }
  // One line per crash and per SIGTERM stop slower than `term_limit_seconds` or unclean.
  std::vector<std::string> failures(double term_limit_seconds) const;

  nlohmann::json to_json() const;
  std::string markdown() const;

 private:
  struct Stop {
    double at;
    std::string why;
    DaemonExit exit;
  };
  struct Crash {
    double at;
    DaemonExit exit;
    std::string cause, log_tail;
  };
  std::vector<Stop> stops_;
  std::vector<Crash> crashes_;
};

}  // namespace ktune::soak
