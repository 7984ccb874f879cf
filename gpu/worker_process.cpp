#include "gpu/worker_process.h"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

extern char** environ;

namespace ktune {
namespace {

// The child's pid and the daemon's end of the socket.
std::pair<pid_t, int> spawn_worker(const std::string& program) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    throw WorkerError(WorkerError::Kind::Closed, std::string("cannot create the worker's socket: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
  char* argv[] = {const_cast<char*>(program.c_str()), nullptr};
  pid_t pid = -1;
  const int failed = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (failed) {
    close(ends[0]);
    throw WorkerError(WorkerError::Kind::Closed,
                      "cannot start the measurement worker " + program + ": " + std::strerror(failed));
  }
  return {pid, ends[0]};
}

}  // namespace

WorkerProcess::WorkerProcess(const std::string& program) : WorkerProcess(spawn_worker(program)) {}

WorkerProcess::WorkerProcess(std::pair<pid_t, int> child)
    : pid_(child.first), socket_(child.second), stream_(socket_, socket_) {}

WorkerProcess::~WorkerProcess() {
  close(socket_);
  if (!reap(2.0)) kill();
}

void WorkerProcess::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  reap(-1);
}

bool WorkerProcess::reap(double wait_s) {
  if (pid_ <= 0) return true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  for (;;) {
    const pid_t done = waitpid(pid_, &wait_status_, wait_s < 0 ? 0 : WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) {
      pid_ = -1;
      return true;
    }
    if (wait_s >= 0 && std::chrono::steady_clock::now() >= deadline) return false;
    if (wait_s >= 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::string WorkerProcess::exit_description(double wait_s) {
  if (!reap(wait_s)) {
    kill();
    return "did not exit and was killed";
  }
  if (WIFEXITED(wait_status_)) return "exited with status " + std::to_string(WEXITSTATUS(wait_status_));
  if (WIFSIGNALED(wait_status_)) {
    const int sig = WTERMSIG(wait_status_);
    return "was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  return "ended";
}

}  // namespace ktune
