// ktuned: the tuning daemon. Serves docs/api.md on the configured address until SIGTERM/SIGINT,
// then stops accepting, lets running jobs reach a safe point, and exits 0; jobs that do not
// stop within the grace period are left to resume at the next start.
#include <httplib.h>
#include <malloc.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "server/auth.h"
#include "server/http_api.h"
#include "server/logging.h"
#include "server/service.h"
#include "workload/input_error.h"

namespace {

// cpp-httplib listens with a backlog of 5, so a burst of connections is reset; the listening
// socket is captured as it is made and its backlog raised once it listens.
class ListenBacklog {
 public:
  void capture(httplib::Server& server) {
    server.set_socket_options([this](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
      socket_ = sock;
    });
  }
  void raise() const {
    if (socket_ >= 0) ::listen(socket_, SOMAXCONN);
  }

 private:
  socket_t socket_ = -1;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace ktune;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << server_usage() << "\n";
    return 0;
  }
  ServerConfig config;
  std::string token;
  try {
    config = parse_server_config(args);
    set_log_level(log_level_from_string(config.log_level));
    if (!config.auth_token_file.empty()) token = read_auth_token(config.auth_token_file);
    if (token.empty() && !config.insecure && !is_loopback(config.bind))
      throw InputError("--bind " + config.bind +
                       " lets other machines reach ktuned: give --auth-token-file FILE (clients send it as "
                       "KTUNE_TOKEN), or --insecure to serve them without authentication");
  } catch (const InputError& e) {
    std::cerr << "ktuned: " << e.what() << "\n";
    return 2;
  }

  // Buffers of a megabyte and more (request bodies, a matrix's entries and CSR) come from mmap
  // and go back to the system when freed. glibc would otherwise raise this threshold after the
  // first large free and serve later ones from its arenas, which keep the memory: a few
  // hundred refused uploads left ktuned 360 MB larger (bench/README.md, "Hostile clients").
  mallopt(M_MMAP_THRESHOLD, 1 << 20);

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
    ListenBacklog backlog;
    backlog.capture(server);
    install_routes(server, service, config.max_body_bytes, token);

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
    backlog.raise();
    std::atomic<bool> signalled{false};
    const double grace_s = config.shutdown_grace_seconds;
    std::thread signal_waiter([&server, &signalled, stop_signals, grace_s] {
      int received = 0;
      sigwait(&stop_signals, &received);
      signalled = true;
      log_info(std::string("received ") + (received == SIGTERM ? "SIGTERM" : "SIGINT") + ", shutting down");
      // Whatever runs, the daemon is gone within the grace period: every write is a SQLite
      // transaction, and an interrupted job is still marked running, so it resumes.
      std::thread([grace_s] {
        std::this_thread::sleep_for(std::chrono::duration<double>(grace_s));
        log(LogLevel::Warn, "jobs did not stop within " + std::to_string(grace_s) +
                                " s of the signal; exiting without them (they resume at the next start)");
        std::fflush(nullptr);
        ::_exit(0);
      }).detach();
      server.stop();
    });
    service.resume_jobs();
    std::printf("ktuned listening on http://%s:%d\n", config.bind.c_str(), port);
    std::fflush(stdout);
    log_info("listening on " + config.bind + ":" + std::to_string(port) + ", database " + config.db_path +
             (token.empty() ? "" : ", bearer token required"));
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
