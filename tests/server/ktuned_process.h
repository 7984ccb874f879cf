#pragma once
// Starts a real ktuned on a free loopback port for end-to-end tests, with its own database
// and data dir, and stops it (SIGTERM, or SIGKILL to simulate a crash).
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ktune::testing {

inline std::filesystem::path fresh_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("ktune-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

class KtunedProcess {
 public:
  // `dir` holds the database (dir/ktune.db) and the data dir (dir/data).
  explicit KtunedProcess(std::filesystem::path dir, std::vector<std::string> extra = {})
      : dir_(std::move(dir)), extra_(std::move(extra)) {
    std::filesystem::create_directories(dir_ / "data");
    start();
  }
  ~KtunedProcess() { stop(SIGTERM); }

  void start() {
    const std::string out = (dir_ / "stdout").string(), err = (dir_ / "stderr").string();
    std::filesystem::remove(out);
    pid_ = ::fork();
    if (pid_ == 0) {
      std::vector<std::string> args = {KTUNE_BINARY_DIR "/bin/ktuned", "--port", "0", "--db",
                                       (dir_ / "ktune.db").string(), "--data-dir", (dir_ / "data").string(),
                                       "--log-level", "warn"};
      args.insert(args.end(), extra_.begin(), extra_.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen(err.c_str(), "a", stderr)) ::_exit(126);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      std::ifstream in(out);
      std::string line;
      if (std::getline(in, line) && line.find("listening on http://") != std::string::npos) {
        port_ = std::stoi(line.substr(line.rfind(':') + 1));
        return;
      }
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error("ktuned exited at start: " + log());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    throw std::runtime_error("ktuned did not start within 30 s: " + log());
  }

  // Returns the exit status (or -signal).
  int stop(int sig) {
    if (pid_ <= 0) return 0;
    ::kill(pid_, sig);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }

  bool running() const {
    if (pid_ <= 0) return false;
    int status = 0;
    return ::waitpid(pid_, &status, WNOHANG) == 0;
  }

  std::string log() const {
    std::ifstream in(dir_ / "stderr");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  // A line of /proc/PID/status in kB, e.g. "VmRSS" (now) or "VmHWM" (the peak so far).
  long memory_kb(const std::string& field) const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    for (std::string line; std::getline(in, line);)
      if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    return -1;
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  const std::filesystem::path& dir() const { return dir_; }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(600, 0);
    return c;
  }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> extra_;
  pid_t pid_ = -1;
  int port_ = 0;
};

inline std::string read_binary(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline std::string project_matrix(const std::string& name) {
  return read_binary(std::filesystem::path(KTUNE_SOURCE_DIR) / "data" / "matrices" / name);
}

}  // namespace ktune::testing
