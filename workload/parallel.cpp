#include "workload/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "workload/cancellation.h"

namespace ktune {

int worker_count(int64_t items, int64_t min_items_per_thread) {
  const int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  const int64_t useful = std::max<int64_t>(1, items / std::max<int64_t>(1, min_items_per_thread));
  return static_cast<int>(std::min(cores, useful));
}

void parallel_for(int tasks, int threads, const std::function<void(int)>& task) {
  threads = std::clamp(threads, 1, std::max(1, tasks));
  std::atomic<int> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const std::atomic<bool>* cancellation = current_cancellation();
  auto drain = [&] {
    CancellationScope scope(cancellation);
    for (int i = next++; i < tasks; i = next++) {
      try {
        throw_if_cancelled();
        task(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(drain);
  drain();
  for (auto& h : helpers) h.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace ktune
