#include "bench/soak/rss_sampler.h"

#include <fstream>
#include <sstream>
#include <string>

namespace ktune::soak {

std::optional<int64_t> vm_rss_bytes(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) != 0) continue;
    std::istringstream fields(line.substr(6));
    int64_t kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return std::nullopt;  // gone, or a zombie (which has no VmRSS line)
}

RssSampler::RssSampler(std::function<pid_t()> pid, std::chrono::milliseconds period)
    : pid_(std::move(pid)), period_(period) {
  thread_ = std::thread([this] {
    while (!stop_) {
      if (const auto rss = vm_rss_bytes(pid_())) {
        ++samples_;
        if (*rss > peak_) {
          peak_ = *rss;
          peak_marker_ = marker_.load();
        }
      }
      std::this_thread::sleep_for(period_);
    }
  });
}

RssSampler::~RssSampler() {
  stop_ = true;
  thread_.join();
}

}  // namespace ktune::soak
