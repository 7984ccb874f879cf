#pragma once
// The daemon's resident memory (VmRSS), read from /proc, once or sampled in the background.
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <thread>

namespace ktune::soak {

// VmRSS of `pid` in bytes; nullopt when the process is gone.
std::optional<int64_t> vm_rss_bytes(pid_t pid);

// Samples whichever process `pid()` names at the time (it changes across restarts) every
// `period` until destroyed, keeping the peak and the marker set when it was reached (the
// request in flight, say), so that a peak can be traced to its cause.
class RssSampler {
 public:
  RssSampler(std::function<pid_t()> pid, std::chrono::milliseconds period);
  ~RssSampler();
  RssSampler(const RssSampler&) = delete;
  RssSampler& operator=(const RssSampler&) = delete;

  void mark(int64_t marker) { marker_ = marker; }
  int64_t peak_bytes() const { return peak_; }
  int64_t peak_marker() const { return peak_marker_; }
  int64_t samples() const { return samples_; }

 private:
  std::function<pid_t()> pid_;
  std::chrono::milliseconds period_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> marker_{-1}, peak_{0}, peak_marker_{-1}, samples_{0};
  std::thread thread_;
};

}  // namespace ktune::soak
