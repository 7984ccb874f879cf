#pragma once
// A job's request to stop, seen by the long loops it runs on whatever thread they run.
// The job's thread installs its flag with a CancellationScope; parallel_for and the thread
// pool hand the submitting thread's flag to the threads that run its work; the long loops
// (parsing, building, signatures, estimates, emulation, compiles, measurement) call
// throw_if_cancelled() between pieces small enough that a stop takes effect within a second.
#include <atomic>

namespace ktune {

// Deliberately not a std::exception: the handlers that turn any failure of a candidate into
// a message about that candidate (catch std::exception) must let a stop pass through.
struct Cancelled {};

// The flag of the job this thread works for, or nullptr.
const std::atomic<bool>* current_cancellation();

// True once the current job was asked to stop.
bool cancellation_requested();

// Throws Cancelled once the current job was asked to stop.
inline void throw_if_cancelled() {
  if (cancellation_requested()) throw Cancelled();
}

// Makes `flag` (may be nullptr) this thread's flag until the scope ends, then restores the
// previous one.
class CancellationScope {
 public:
  explicit CancellationScope(const std::atomic<bool>* flag);
  ~CancellationScope();
  CancellationScope(const CancellationScope&) = delete;
  CancellationScope& operator=(const CancellationScope&) = delete;

 private:
  const std::atomic<bool>* previous_;
};

}  // namespace ktune
