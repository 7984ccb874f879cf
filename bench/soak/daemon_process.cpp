#include "bench/soak/daemon_process.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ktune::soak {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

std::filesystem::path fresh_temp_dir(const std::string& prefix) {
  std::string name = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(name.data()))
    throw std::runtime_error("cannot create a directory " + name + ": " + std::strerror(errno));
  return name;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return "signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
  return "status " + std::to_string(status);
}

DaemonProcess::DaemonProcess(std::string binary, std::filesystem::path dir)
    : binary_(std::move(binary)), dir_(std::move(dir)) {
  std::filesystem::create_directories(data_dir());
}

DaemonProcess::~DaemonProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

void DaemonProcess::start() {
  const std::string out = (dir_ / ("stdout." + std::to_string(++starts_))).string();
  const std::string err = (dir_ / "stderr").string();
  std::vector<std::string> args = {binary_,
                                   "--bind",
                                   "127.0.0.1",
                                   "--port",
                                   "0",
                                   "--db",
                                   database().string(),
                                   "--data-dir",
                                   data_dir().string(),
                                   "--log-level",
                                   "warn"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Everything the child needs is prepared here: between fork and exec a threaded parent's
  // child may only make async-signal-safe calls.
  const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out_fd < 0 || err_fd < 0) throw std::runtime_error("cannot create the daemon's log files in " + dir_.string());
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child == 0) {
    // Dies with the thread that started it (always the main thread): a killed soak leaves no daemon.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(126);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out_fd);
  ::close(err_fd);
  if (child < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  pid_ = child;

  const auto begin = Clock::now();
  while (seconds_since(begin) < 120) {
    std::ifstream in(out);
    std::string line;
    if (std::getline(in, line) && line.find("listening on http://") != std::string::npos) {
      port_ = std::stoi(line.substr(line.rfind(':') + 1));
      return;
    }
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) {
      pid_ = -1;
      throw std::runtime_error(binary_ + " exited at start (" + describe_wait_status(status) +
                               "): " + stderr_tail(4000));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error(binary_ + " did not print its port within 120 s: " + stderr_tail(4000));
}

DaemonExit DaemonProcess::stop(int signal, double grace_seconds) {
  DaemonExit exit;
  exit.signal = signal;
  if (pid_ <= 0) return exit;
  port_ = 0;
  ++generation_;
  const auto begin = Clock::now();
  ::kill(pid_, signal);
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (!exit.forced && seconds_since(begin) > grace_seconds) {
      exit.forced = true;
      ::kill(pid_, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  exit.seconds = seconds_since(begin);
  exit.status = describe_wait_status(status);
  exit.clean = !exit.forced && (signal == SIGKILL ? WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL
                                                  : WIFEXITED(status) && WEXITSTATUS(status) == 0);
  pid_ = -1;
  return exit;
}

std::optional<DaemonExit> DaemonProcess::crashed() {
  int status = 0;
  if (pid_ <= 0 || ::waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
  port_ = 0;
  pid_ = -1;
  DaemonExit exit;
  exit.status = describe_wait_status(status);
  return exit;
}

std::string DaemonProcess::stderr_tail(size_t bytes) const {
  std::ifstream in(dir_ / "stderr", std::ios::binary);
  const std::string text(std::istreambuf_iterator<char>(in), {});
  return text.size() > bytes ? text.substr(text.size() - bytes) : text;
}

}  // namespace ktune::soak
