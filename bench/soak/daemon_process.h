#pragma once
// A real ktuned as a child process: on 127.0.0.1, a port the kernel picks, its database and
// data dir in one directory, so that it can be stopped by a signal and started again on the
// same database. It tells an exit nobody asked for (a crash) from a requested stop.
#include <sys/types.h>

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>

namespace ktune::soak {

struct DaemonExit {
  int signal = 0;       // what stop() sent; 0 for a crash
  double seconds = 0;   // from the signal to the exit
  std::string status;   // "exit 0", "signal 11 (Segmentation fault)"
  bool clean = false;   // exited 0 (after SIGTERM), or died of the SIGKILL it was sent
  bool forced = false;  // outlived the grace period and was killed
};

class DaemonProcess {
 public:
  // `dir` holds ktune.db, data/ and the daemon's stdout/stderr; it must exist.
  DaemonProcess(std::string binary, std::filesystem::path dir);
  ~DaemonProcess();  // kills a daemon still running: none outlives its test
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  // Starts it and waits for its "listening on" line; throws std::runtime_error with its stderr.
  void start();
  // Sends `signal` and waits for the exit; after `grace_seconds` it sends SIGKILL.
  DaemonExit stop(int signal, double grace_seconds);
  // The exit of a daemon that died on its own, once; nullopt while it runs (or was stopped).
  std::optional<DaemonExit> crashed();

  // Safe from any thread. port() is 0 while the daemon is down; generation() changes at every
  // stop (not at a crash), so a caller can tell a request cut by a restart from a failure.
  pid_t pid() const { return pid_; }
  int port() const { return port_; }
  int64_t generation() const { return generation_; }

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path database() const { return dir_ / "ktune.db"; }
  std::filesystem::path data_dir() const { return dir_ / "data"; }
  std::string stderr_tail(size_t bytes) const;

 private:
  std::string binary_;
  std::filesystem::path dir_;
  std::atomic<pid_t> pid_{-1};
  std::atomic<int> port_{0};
  std::atomic<int64_t> generation_{0};
  int starts_ = 0;
};

// A new empty directory /tmp/PREFIX-XXXXXX for a daemon's files.
std::filesystem::path fresh_temp_dir(const std::string& prefix);

// "exit N" or "signal N (name)" for a waitpid status.
std::string describe_wait_status(int status);

}  // namespace ktune::soak
