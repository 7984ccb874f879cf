#include "model/saake/emulation_memory.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace ktune {
namespace {

TEST(EmulationMemory, AReservationThatDoesNotFitWaitsForTheOthersToFinish) {
  EmulationMemory memory(100);
  std::atomic<bool> second_in{false};
  std::thread second;
  {
    const EmulationMemory::Lease first = memory.reserve(60);
    EXPECT_EQ(memory.held(), 60u);
    second = std::thread([&] {
      const EmulationMemory::Lease lease = memory.reserve(60);
      second_in = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_FALSE(second_in.load()) << "60 + 60 does not fit in 100";
    // What fits beside the first does not wait.
    const EmulationMemory::Lease small = memory.reserve(40);
    EXPECT_EQ(memory.held(), 100u);
  }
  second.join();
  EXPECT_TRUE(second_in.load());
  EXPECT_EQ(memory.held(), 0u);
}

TEST(EmulationMemory, AReservationAloneProceedsWhateverItsSize) {
  EmulationMemory memory(10);
  {
    const EmulationMemory::Lease huge = memory.reserve(1000);
    EXPECT_EQ(memory.held(), 1000u);
  }
  EXPECT_EQ(memory.held(), 0u);
}

}  // namespace
}  // namespace ktune
