#include "db/reader_pool.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <atomic>

namespace ktune {
namespace {

class ReaderPoolTest : public ::testing::Test {
 protected:
  std::atomic<int> opened_{0};
  ReaderPool pool_{[this] {
    ++opened_;
    return std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE);
  }};
};

TEST_F(ReaderPoolTest, ReleasedConnectionIsReused) {
  SQLite::Database* first = nullptr;
  {
    auto lease = pool_.acquire();
    first = &lease.connection();
    EXPECT_EQ(pool_.idle_count(), 0u);
  }
  EXPECT_EQ(pool_.idle_count(), 1u);
  auto again = pool_.acquire();
  EXPECT_EQ(&again.connection(), first);
  EXPECT_EQ(opened_, 1);
}

TEST_F(ReaderPoolTest, ConcurrentLeasesGetDistinctConnections) {
  {
    auto a = pool_.acquire();
    auto b = pool_.acquire();
    EXPECT_NE(&a.connection(), &b.connection());
    EXPECT_EQ(opened_, 2);
  }
  EXPECT_EQ(pool_.idle_count(), 2u);
  auto c = pool_.acquire();
  EXPECT_EQ(opened_, 2);
}

}  // namespace
}  // namespace ktune
