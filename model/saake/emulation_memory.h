#pragma once
// How much interpreter memory the emulations of one process hold at once. A plan with a program
// runs every block of every launch, so its scratch and output buffers are allocated and poisoned
// in full: for a graph of 4 M vertices about 50 MB an emulation, and a tune emulates on every
// core. Reservations wait while others hold memory and theirs would not fit; one reservation
// alone always proceeds, whatever its size.
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace ktune {

class EmulationMemory {
 public:
  explicit EmulationMemory(size_t capacity_bytes) : capacity_(capacity_bytes) {}

  // Held for the emulation's lifetime; released when destroyed.
  class Lease {
   public:
    Lease(EmulationMemory& memory, size_t bytes) : memory_(&memory), bytes_(bytes) {}
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { memory_->release(bytes_); }

   private:
    EmulationMemory* memory_;
    size_t bytes_;
  };

  // Waits (checking the caller's cancellation, workload/cancellation.h) until `bytes` fit beside
  // what is held, or nothing is held.
  Lease reserve(size_t bytes);
  size_t held() const;

 private:
  void release(size_t bytes);

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  size_t held_ = 0;
};

// The process's: 64 MiB, so that a large graph's emulations run one at a time while a small
// one's run on every core.
EmulationMemory& shared_emulation_memory();

}  // namespace ktune
