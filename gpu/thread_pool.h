#pragma once
// The project's one thread pool: a fixed set of workers taking tasks in submission order.
// NVRTC compiles and other CPU-heavy, independent steps of a tuning job run here.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "workload/cancellation.h"

namespace ktune {

class ThreadPool {
 public:
  explicit ThreadPool(size_t threads = default_size());
  // Runs every task already submitted (and any they submit), then joins the workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The future carries the task's result, or the exception it threw.
  template <typename F>
  auto submit(F&& task) -> std::future<std::invoke_result_t<std::decay_t<F>>> {
    using Result = std::invoke_result_t<std::decay_t<F>>;
    // std::function needs a copyable callable; packaged_task is move-only.
    auto packaged = std::make_shared<std::packaged_task<Result()>>(std::forward<F>(task));
    std::future<Result> result = packaged->get_future();
    // The task runs for the submitting job: it sees that job's cancellation.
    enqueue([packaged, cancellation = current_cancellation()] {
      CancellationScope scope(cancellation);
      (*packaged)();
    });
    return result;
  }

  size_t size() const { return workers_.size(); }
  // One worker per hardware thread, at least one when the count is unknown.
  static size_t default_size();

 private:
  void enqueue(std::function<void()> task);
  void work();

  std::mutex mutex_;
  std::condition_variable task_ready_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

// Waits, when it goes out of scope, for every future still pending: tasks that reference the
// submitting frame must end before an exception (a cancellation, say) unwinds it.
template <typename T>
class PendingTasks {
 public:
  explicit PendingTasks(std::vector<std::future<T>>& futures) : futures_(futures) {}
  ~PendingTasks() {
    for (auto& f : futures_)
      if (f.valid()) f.wait();
  }
  PendingTasks(const PendingTasks&) = delete;
  PendingTasks& operator=(const PendingTasks&) = delete;

 private:
  std::vector<std::future<T>>& futures_;
};

}  // namespace ktune
