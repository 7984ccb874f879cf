#include "workload/derived_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ktune {
namespace {

TEST(DerivedCache, MakesEachKeyOnceWhateverTheCallersAndKeepsTypesApart) {
  const DerivedCache cache;
  std::atomic<int> made{0};
  std::vector<std::thread> callers;
  std::vector<std::shared_ptr<const int>> got(8);
  for (size_t t = 0; t < got.size(); ++t)
    callers.emplace_back([&, t] {
      got[t] = cache.get<int>("answer", [&] {
        ++made;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the others arrive meanwhile
        return 42;
      });
    });
  for (std::thread& c : callers) c.join();
  EXPECT_EQ(made.load(), 1);
  for (const auto& g : got) EXPECT_EQ(g.get(), got[0].get());
  EXPECT_EQ(*got[0], 42);
  // The same key of another type is another value.
  EXPECT_EQ(*cache.get<double>("answer", [] { return 0.5; }), 0.5);
}

TEST(DerivedCache, AFailedMakeIsTriedAgain) {
  const DerivedCache cache;
  EXPECT_THROW(cache.get<int>("k", []() -> int { throw std::runtime_error("no"); }), std::runtime_error);
  EXPECT_EQ(*cache.get<int>("k", [] { return 7; }), 7);
}

TEST(DerivedCache, ACopyStartsEmptyAndAMoveKeepsWhatWasMade) {
  DerivedCache cache;
  const auto first = cache.get<int>("k", [] { return 1; });
  const DerivedCache copy = cache;
  EXPECT_EQ(*copy.get<int>("k", [] { return 2; }), 2);
  const DerivedCache moved = std::move(cache);
  EXPECT_EQ(moved.get<int>("k", [] { return 3; }).get(), first.get());
}

}  // namespace
}  // namespace ktune
