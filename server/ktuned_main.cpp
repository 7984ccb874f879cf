// ktuned: the tuning daemon. Serves docs/api.md on the configured address until SIGTERM/SIGINT,
// then stops accepting, lets running jobs reach a safe point, and exits 0.
#include <httplib.h>
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <iostream>
#include <thread>

#include "server/http_api.h"
#include "server/logging.h"
#include "server/service.h"
#include "workload/input_error.h"

int main(int argc, char** argv) {
  using namespace ktune;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << server_usage() << "\n";
    return 0;
  }
  ServerConfig config;
  try {
    config = parse_server_config(args);
    set_log_level(log_level_from_string(config.log_level));
  } catch (const InputError& e) {
    std::cerr << "ktuned: " << e.what() << "\n";
    return 2;
  }

  // Signals go to one waiting thread, never into arbitrary worker threads.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  try {
    Service service(config);
    httplib::Server server;
    const int http_threads = config.http_threads;
    server.new_task_queue = [http_threads] { return new httplib::ThreadPool(static_cast<size_t>(http_threads)); };
    server.set_keep_alive_max_count(100000);
    server.set_tcp_nodelay(true);  // small JSON answers: no 40 ms delayed-ACK stalls
    install_routes(server, service, config.max_body_bytes);

    int port = config.port;
    if (port == 0) {
      port = server.bind_to_any_port(config.bind);
    } else if (!server.bind_to_port(config.bind, port)) {
      port = -1;
    }
    if (port < 0) {
      log_error("cannot listen on " + config.bind + ":" + std::to_string(config.port));
      return 1;
    }
    std::atomic<bool> signalled{false};
    std::thread signal_waiter([&server, &signalled, stop_signals] {
      int received = 0;
      sigwait(&stop_signals, &received);
      signalled = true;
      log_info(std::string("received ") + (received == SIGTERM ? "SIGTERM" : "SIGINT") + ", shutting down");
      server.stop();
    });
    service.resume_jobs();
    std::printf("ktuned listening on http://%s:%d\n", config.bind.c_str(), port);
    std::fflush(stdout);
    log_info("listening on " + config.bind + ":" + std::to_string(port) + ", database " + config.db_path);
    server.listen_after_bind();
    service.shutdown();
    // If listen returned for another reason than a signal, wake the waiter so it can exit.
    if (!signalled) pthread_kill(signal_waiter.native_handle(), SIGTERM);
    signal_waiter.join();
    log_info("stopped");
  } catch (const std::exception& e) {
    log_error(e.what());
    return 1;
  }
  return 0;
}
