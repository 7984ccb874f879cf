#include "workload/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace ktune {
namespace {

TEST(ParallelFor, RunsEveryTaskOnce) {
  for (int threads : {1, 2, 8}) {
    std::vector<std::atomic<int>> runs(37);
    parallel_for(37, threads, [&](int i) { ++runs[i]; });
    for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  }
  parallel_for(0, 4, [](int) { FAIL() << "no task to run"; });
}

TEST(ParallelFor, RethrowsATaskError) {
  std::atomic<int> finished{0};
  EXPECT_THROW(parallel_for(10, 3,
                            [&](int i) {
                              if (i == 4) throw std::runtime_error("task 4");
                              ++finished;
                            }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 9);  // the other tasks still ran
}

TEST(Parts, CoverTheRangeInOrder) {
  for (int parts : {1, 3, 7}) {
    EXPECT_EQ(part_begin(100, parts, 0), 0);
    EXPECT_EQ(part_begin(100, parts, parts), 100);
    for (int p = 0; p < parts; ++p)
      EXPECT_LE(part_begin(100, parts, p), part_begin(100, parts, p + 1));
  }
  EXPECT_EQ(worker_count(10, 1000), 1);
  EXPECT_GE(worker_count(int64_t{1} << 40, 1), 1);
}

}  // namespace
}  // namespace ktune
