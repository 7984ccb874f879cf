#pragma once
// One measurement worker as a child process, its stdin and stdout joined to a socket.
// A CUDA fault poisons the whole context of the process it happens in; in a child it costs
// only that child, which the daemon replaces.
#include <sys/types.h>

#include <string>
#include <utility>

#include "gpu/worker_protocol.h"

namespace ktune {

class WorkerProcess {
 public:
  // Throws WorkerError(Closed) when the program cannot be started.
  explicit WorkerProcess(const std::string& program);
  // Closes the stream (the worker's cue to exit), waits a moment, then kills it.
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  MessageStream& stream() { return stream_; }
  // SIGKILL, for a worker stuck in a kernel that will not finish.
  void kill();
  // How the worker ended, e.g. "exited with status 2" or "killed by signal 11
  // (Segmentation fault)"; waits up to `wait_s` for it to end, then kills it.
  std::string exit_description(double wait_s = 5);

 private:
  explicit WorkerProcess(std::pair<pid_t, int> child);
  bool reap(double wait_s);  // true once the child is collected

  pid_t pid_ = -1;
  int socket_ = -1;
  MessageStream stream_;
  int wait_status_ = 0;
};

}  // namespace ktune
