#include "gpu/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace ktune {
namespace {

TEST(ThreadPool, RunsEveryTaskAndReturnsItsResult) {
  ThreadPool pool(3);
  std::vector<std::future<int>> results;
  for (int i = 0; i < 100; ++i) results.push_back(pool.submit([i] { return i * i; }));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(results[i].get(), i * i);
}

TEST(ThreadPool, PropagatesExceptions) {
  ThreadPool pool(2);
  auto failing = pool.submit([]() -> int { throw std::runtime_error("task failed"); });
  auto fine = pool.submit([] { return 7; });
  EXPECT_THROW(failing.get(), std::runtime_error);
  EXPECT_EQ(fine.get(), 7);  // a failed task does not take its worker down
}

TEST(ThreadPool, DestructorDrainsTheQueue) {
  std::atomic<int> done{0};
  {
    ThreadPool pool(2);
    for (int i = 0; i < 50; ++i) {
      pool.submit([&done] {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        ++done;
      });
    }
  }
  EXPECT_EQ(done.load(), 50);
}

TEST(ThreadPool, TasksSubmittedDuringDrainStillRun) {
  std::atomic<int> done{0};
  {
    ThreadPool pool(1);
    pool.submit([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      pool.submit([&done] { ++done; });
    });
  }
  EXPECT_EQ(done.load(), 1);
}

TEST(ThreadPool, WorkersRunConcurrently) {
  // Each task waits for the other to start: a pool running them one at a time never ends
  // them, which shows here as a timeout rather than a hang.
  ThreadPool pool(2);
  std::atomic<int> started{0};
  auto rendezvous = [&started] {
    ++started;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    return started.load() == 2;
  };
  auto a = pool.submit(rendezvous);
  auto b = pool.submit(rendezvous);
  EXPECT_TRUE(a.get());
  EXPECT_TRUE(b.get());
}

TEST(ThreadPool, DefaultSizeFollowsTheHardware) {
  ThreadPool pool;
  EXPECT_EQ(pool.size(), std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
}

}  // namespace
}  // namespace ktune
