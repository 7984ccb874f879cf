#pragma once
// What the daemon answered, counted by route and status, shared by all client threads; every
// 5xx and every failed connection is kept with the request that met it, for the report.
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ktune::soak {

struct Reply {
  bool answered = false;  // a status came back
  int status = 0;
  std::string body;
  std::string error;            // why nothing came back (httplib's error name)
  bool timed_out = false;       // the client's own read timeout ran out
  bool cut_by_restart = false;  // the daemon was stopped on purpose while this was in flight
  double seconds = 0;
};

class RequestTally {
 public:
  // `route` is the method and route ("POST /v1/matrices"); `request` says what was sent.
  void record(const std::string& route, const Reply& reply, const std::string& request);
  // An answer that breaks the API's rules (docs/api.md), e.g. an error body that is not JSON.
  void record_problem(const std::string& route, const std::string& request, const std::string& problem);

  int64_t requests() const;
  int64_t server_errors() const;
  int64_t connection_failures() const;  // neither a client timeout nor cut by a restart
  int64_t timeouts() const;
  int64_t problems() const;

  nlohmann::json to_json() const;
  std::string markdown() const;

 private:
  struct Listed {
    std::string route, request, detail;
  };
  void list(std::vector<Listed>& where, Listed item);

  mutable std::mutex mutex_;
  std::map<std::string, std::map<std::string, int64_t>> by_route_;  // route -> outcome -> count
  std::map<std::string, int64_t> by_outcome_;                       // "201", "no answer: Read", ...
  int64_t requests_ = 0, server_errors_ = 0, failures_ = 0, timeouts_ = 0, cut_ = 0, problems_ = 0;
  std::vector<Listed> server_error_list_, failure_list_, problem_list_;
};

}  // namespace ktune::soak
