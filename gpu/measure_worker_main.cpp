// ktune-measure-worker: measures kernels for ktuned in a process of its own, so that a
// kernel that faults or hangs costs only this process (gpu/worker_session.h). Speaks the
// protocol of gpu/worker_protocol.h on stdin/stdout; not meant to be run by hand.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>

#include "gpu/worker_protocol.h"
#include "gpu/worker_session.h"

int main() {
  // A daemon that exits without waiting (killed, or its shutdown cut short) takes its worker
  // with it, even one stuck in a kernel.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 0;  // the daemon died before the line above
  // Libraries may print to stdout; those bytes must not land inside the protocol stream,
  // so the protocol keeps the original stdout and stdout itself goes to stderr.
  const int protocol_out = dup(STDOUT_FILENO);
  if (protocol_out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("ktune-measure-worker: redirecting stdout");
    return 1;
  }
  ktune::MessageStream stream(STDIN_FILENO, protocol_out);
  return ktune::serve_worker(stream);
}
