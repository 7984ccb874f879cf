#pragma once
// An HTTP client of the daemon that records every exchange in a RequestTally. It follows the
// daemon across restarts: the port is taken from the DaemonProcess at each call, and a call
// waits while the daemon is down. One per thread (it keeps a keep-alive connection).
#include <httplib.h>

#include <functional>
#include <memory>
#include <string>

#include "bench/soak/daemon_process.h"
#include "bench/soak/request_tally.h"

namespace ktune::soak {

class RecordedClient {
 public:
  RecordedClient(const DaemonProcess& daemon, RequestTally& tally, double timeout_seconds);

  // `route` names the route in the tally ("GET /v1/jobs/{id}"), `request` says what was sent.
  Reply get(const std::string& route, const std::string& path, const std::string& request = "");
  Reply post(const std::string& route, const std::string& path, const std::string& body,
             const std::string& content_type, const std::string& request);
  Reply del(const std::string& route, const std::string& path, const std::string& request = "");

  // Sends paths exactly as given, without percent-encoding: a malformed query arrives as written.
  void send_paths_raw() { raw_paths_ = true; }

 private:
  Reply send(const std::string& route, const std::string& request,
             const std::function<httplib::Result(httplib::Client&)>& call);

  const DaemonProcess& daemon_;
  RequestTally& tally_;
  double timeout_seconds_;
  bool raw_paths_ = false;
  std::unique_ptr<httplib::Client> client_;
  int64_t client_generation_ = -1;
  int client_port_ = 0;
};

}  // namespace ktune::soak
