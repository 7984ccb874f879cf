#include "model/saake/emulation_memory.h"

#include <chrono>

#include "workload/cancellation.h"

namespace ktune {

EmulationMemory::Lease EmulationMemory::reserve(size_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (held_ > 0 && held_ + bytes > capacity_) {
    freed_.wait_for(lock, std::chrono::milliseconds(100));
    lock.unlock();
    throw_if_cancelled();
    lock.lock();
  }
  held_ += bytes;
  return Lease(*this, bytes);
}

size_t EmulationMemory::held() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_;
}

void EmulationMemory::release(size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_ -= bytes;
  }
  freed_.notify_all();
}

EmulationMemory& shared_emulation_memory() {
  static EmulationMemory memory(size_t{64} << 20);
  return memory;
}

}  // namespace ktune
