#pragma once
// The measurement worker's side of the protocol (gpu/worker_protocol.h): opens the GPU,
// keeps uploaded inputs, verifies and times each request and answers it. A CUDA error that
// leaves the context unusable (an illegal address, a trap) is answered as a Fault and ends
// the session: every later call in this process would fail the same way.
#include "gpu/worker_protocol.h"

namespace ktune {

constexpr int kWorkerContextLost = 2;

// Serves requests on `stream` until the daemon closes it (returns 0), the stream breaks
// (returns 1) or the CUDA context is lost (returns kWorkerContextLost).
int serve_worker(MessageStream& stream);

}  // namespace ktune
