#include "bench/soak/recorded_client.h"

#include <chrono>
#include <thread>

namespace ktune::soak {
namespace {

using Clock = std::chrono::steady_clock;

// How long a call waits for a daemon being restarted before it counts as cut by the restart.
constexpr auto kRestartWait = std::chrono::seconds(120);

}  // namespace

RecordedClient::RecordedClient(const DaemonProcess& daemon, RequestTally& tally, double timeout_seconds)
    : daemon_(daemon), tally_(tally), timeout_seconds_(timeout_seconds) {}

Reply RecordedClient::send(const std::string& route, const std::string& request,
                           const std::function<httplib::Result(httplib::Client&)>& call) {
  Reply reply;
  const auto waited_from = Clock::now();
  int port = daemon_.port();
  while (port == 0 && Clock::now() - waited_from < kRestartWait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    port = daemon_.port();
  }
  const int64_t generation = daemon_.generation();
  if (port == 0) {
    reply.error = "daemon down";
    reply.cut_by_restart = true;
    tally_.record(route, reply, request);
    return reply;
  }
  // A new daemon (even one on the same port) gets a new connection.
  if (!client_ || client_generation_ != generation || client_port_ != port) {
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port);
    client_generation_ = generation;
    client_port_ = port;
    const auto timeout = std::chrono::duration<double>(timeout_seconds_);
    client_->set_connection_timeout(std::chrono::duration_cast<std::chrono::microseconds>(timeout));
    client_->set_read_timeout(std::chrono::duration_cast<std::chrono::microseconds>(timeout));
    client_->set_write_timeout(std::chrono::duration_cast<std::chrono::microseconds>(timeout));
    client_->set_url_encode(!raw_paths_);
  }
  const auto begin = Clock::now();
  httplib::Result result = call(*client_);
  reply.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  if (result) {
    reply.answered = true;
    reply.status = result->status;
    reply.body = result->body;
  } else {
    reply.error = httplib::to_string(result.error());
    // httplib reports a read timeout as a failed read: the elapsed time tells them apart.
    reply.timed_out = result.error() == httplib::Error::ConnectionTimeout ||
                      (result.error() == httplib::Error::Read && reply.seconds >= timeout_seconds_ - 0.05);
    reply.cut_by_restart = daemon_.generation() != generation;
    client_.reset();  // a failed connection is not reused
  }
  tally_.record(route, reply, request);
  return reply;
}

Reply RecordedClient::get(const std::string& route, const std::string& path, const std::string& request) {
  return send(route, request.empty() ? path : request, [&path](httplib::Client& c) { return c.Get(path); });
}

Reply RecordedClient::post(const std::string& route, const std::string& path, const std::string& body,
                           const std::string& content_type, const std::string& request) {
  return send(route, request, [&](httplib::Client& c) { return c.Post(path, body, content_type); });
}

Reply RecordedClient::del(const std::string& route, const std::string& path, const std::string& request) {
  return send(route, request.empty() ? path : request, [&path](httplib::Client& c) { return c.Delete(path); });
}

}  // namespace ktune::soak
