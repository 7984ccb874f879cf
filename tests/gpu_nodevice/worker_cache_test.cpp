#include "gpu/worker_cache.h"

#include <gtest/gtest.h>

#include <memory>

namespace ktune {
namespace {

// A value that records its release, like the device memory the worker caches.
struct Tracked {
  std::shared_ptr<int> released_count;
  explicit Tracked(std::shared_ptr<int> c) : released_count(std::move(c)) {}
  Tracked(Tracked&&) = default;
  Tracked& operator=(Tracked&&) = default;
  ~Tracked() {
    if (released_count) ++*released_count;
  }
};

TEST(WorkerCache, EvictsLeastRecentlyUsedFirst) {
  WorkerCache<std::string> cache(100);
  cache.insert("a", "A", 40);
  cache.insert("b", "B", 40);
  ASSERT_NE(cache.find("a"), nullptr);  // a is now more recent than b
  cache.make_room(40, {});
  EXPECT_EQ(cache.find("b"), nullptr);
  ASSERT_NE(cache.find("a"), nullptr);
  EXPECT_EQ(*cache.find("a"), "A");
  EXPECT_EQ(cache.bytes(), 40u);
}

TEST(WorkerCache, NeverEvictsWhatTheRequestKeeps) {
  WorkerCache<std::string> cache(100);
  cache.insert("old", "1", 50);
  cache.insert("new", "2", 50);
  cache.make_room(90, {"old", "new"});
  EXPECT_EQ(cache.size(), 2u);  // over budget, but both are needed now
  cache.make_room(90, {"old"});
  EXPECT_NE(cache.find("old"), nullptr);
  EXPECT_EQ(cache.find("new"), nullptr);
  EXPECT_EQ(cache.bytes(), 50u);
}

TEST(WorkerCache, MakeRoomStopsOnceTheIncomingBytesFit) {
  WorkerCache<std::string> cache(100);
  for (const char* key : {"k1", "k2", "k3", "k4"}) cache.insert(key, key, 25);
  cache.make_room(30, {});  // 100 + 30 > 100: two of 25 must go, the two oldest
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.find("k1"), nullptr);
  EXPECT_EQ(cache.find("k2"), nullptr);
  EXPECT_NE(cache.find("k3"), nullptr);
  EXPECT_NE(cache.find("k4"), nullptr);
}

TEST(WorkerCache, ReleasesEachValueOnceOnReplaceEraseEvictAndDestruction) {
  auto released = std::make_shared<int>(0);  // moved-from values hold no counter
  {
    WorkerCache<Tracked> cache(10);
    cache.insert("a", Tracked(released), 5);
    cache.insert("b", Tracked(released), 5);
    EXPECT_EQ(*released, 0);
    cache.insert("a", Tracked(released), 5);  // replaces the first a
    EXPECT_EQ(*released, 1);
    cache.erase("b");
    EXPECT_EQ(*released, 2);
    EXPECT_EQ(cache.bytes(), 5u);
    cache.insert("c", Tracked(released), 5);
    cache.make_room(5, {"c"});  // 10 + 5 > 10: a goes
    EXPECT_EQ(cache.find("a"), nullptr);
    EXPECT_EQ(*released, 3);
  }
  EXPECT_EQ(*released, 4);  // c, with the cache
}

}  // namespace
}  // namespace ktune
