#include "kernels/spmv/spmv_config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>

#include "workload/input_error.h"

namespace ktune {
namespace {

using Shape = std::tuple<int64_t, int64_t, int64_t, int64_t>;  // schedule, block, lanes, items

Config spmv(const std::string& schedule, int64_t block, int64_t lanes, int64_t items) {
  const std::vector<std::string> names = {"row", "subwarp", "merge", "adaptive", "sell", "sell16", "adaptive_hot"};
  const int64_t index = std::find(names.begin(), names.end(), schedule) - names.begin();
  return {{"schedule", index}, {"block", block}, {"lanes", lanes}, {"items_per_thread", items}};
}

void expect_refused(const Config& c, const std::string& part) {
  try {
    SpmvConfig::from(c);
    FAIL() << "accepted; expected a refusal mentioning " << part;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// The space as the family documents it, built without ParameterSpace.
TEST(SpmvSpace, HoldsExactlyTheDocumentedConfigurations) {
  std::set<Shape> expected;
  for (int64_t block = 64; block <= 1024; block *= 2) {
    expected.insert({0, block, 1, 1});
    for (int64_t lanes = 2; lanes <= 32; lanes *= 2) expected.insert({1, block, lanes, 1});
    for (int64_t items = 1; items <= 16 && block <= 512; ++items) {
      if (block * items <= 4096) expected.insert({2, block, 1, items});
    }
    for (int64_t items : {1, 2, 4, 8}) {
      if (block >= 128 && block * items <= 4096) {
        expected.insert({3, block, 1, items});
        expected.insert({6, block, 1, items});  // adaptive_hot: the same shapes
      }
    }
    expected.insert({4, block, 1, 1});
    expected.insert({5, block, 1, 1});
  }
  std::set<Shape> got;
  const std::vector<Config> configs = spmv_space().enumerate();
  for (const Config& c : configs) {
    got.insert({c.at("schedule"), c.at("block"), c.at("lanes"), c.at("items_per_thread")});
  }
  EXPECT_EQ(configs.size(), expected.size());
  EXPECT_EQ(got, expected);
  EXPECT_LE(configs.size(), 130u);  // every configuration is compiled in CI, per dtype
}

TEST(SpmvSpace, DecodesAValidConfiguration) {
  const SpmvConfig c = SpmvConfig::from(spmv("subwarp", 256, 8, 1));
  EXPECT_EQ(c.schedule, SpmvSchedule::Subwarp);
  EXPECT_EQ(c.schedule_name(), "subwarp");
  EXPECT_EQ(c.block, 256);
  EXPECT_EQ(c.lanes, 8);
  EXPECT_EQ(c.rows_per_block(), 32);
  const SpmvConfig m = SpmvConfig::from(spmv("merge", 128, 1, 7));
  EXPECT_EQ(m.schedule_name(), "merge");
  EXPECT_EQ(m.tile_items(), 128 * 7);
  const SpmvConfig a = SpmvConfig::from(spmv("adaptive", 512, 1, 8));
  EXPECT_EQ(a.schedule, SpmvSchedule::Adaptive);
  EXPECT_EQ(a.schedule_name(), "adaptive");
  EXPECT_EQ(a.tile_items(), 4096);
  EXPECT_TRUE(a.is_adaptive());
  const SpmvConfig h = SpmvConfig::from(spmv("adaptive_hot", 256, 1, 2));
  EXPECT_EQ(h.schedule, SpmvSchedule::AdaptiveHot);
  EXPECT_EQ(h.schedule_name(), "adaptive_hot");
  EXPECT_TRUE(h.is_adaptive());
  EXPECT_FALSE(m.is_adaptive());
}

TEST(SpmvSpace, RefusesWhatItDoesNotAdmit) {
  expect_refused(spmv("row", 256, 4, 1), "lanes must be 1 unless schedule is subwarp");
  expect_refused(spmv("subwarp", 256, 1, 1), "subwarp needs lanes of 2 or more");
  expect_refused(spmv("subwarp", 256, 8, 2), "items_per_thread must be 1");
  expect_refused(spmv("merge", 1024, 1, 1), "merge needs block of 512 or less");
  expect_refused(spmv("merge", 512, 1, 9), "block * items_per_thread <= 4096");
  expect_refused(spmv("adaptive", 1024, 1, 8), "block * items_per_thread <= 4096");
  expect_refused(spmv("adaptive", 64, 1, 1), "adaptive_hot need block of 128 or more");
  expect_refused(spmv("adaptive_hot", 64, 1, 1), "adaptive_hot need block of 128 or more");
  expect_refused(spmv("adaptive_hot", 256, 1, 3), "items_per_thread of 1, 2, 4 or 8");
  expect_refused(spmv("adaptive_hot", 1024, 1, 8), "block * items_per_thread <= 4096");
  expect_refused(spmv("adaptive", 256, 1, 3), "items_per_thread of 1, 2, 4 or 8");
  expect_refused(spmv("adaptive", 256, 2, 1), "lanes must be 1");
  expect_refused(spmv("row", 32, 1, 1), "'block'");
  expect_refused(spmv("merge", 64, 1, 17), "'items_per_thread'");
  Config missing = spmv("row", 256, 1, 1);
  missing.erase("lanes");
  expect_refused(missing, "missing parameter 'lanes'");
}

TEST(SpmvSpace, PinnedParametersMayBeLeftOutOfJson) {
  const Config c = spmv_space().from_json({{"schedule", "row"}, {"block", 128}});
  EXPECT_EQ(c, spmv("row", 128, 1, 1));
  EXPECT_EQ(spmv_space().canonical(c), "block=128;items_per_thread=1;lanes=1;schedule=row");
}

TEST(SpmvSpace, BlocksCoverTheWork) {
  EXPECT_EQ(SpmvConfig::from(spmv("row", 256, 1, 1)).blocks(1000, 5000), 4);
  EXPECT_EQ(SpmvConfig::from(spmv("subwarp", 256, 8, 1)).blocks(1000, 5000), 32);  // 32 rows each
  EXPECT_EQ(SpmvConfig::from(spmv("merge", 256, 1, 4)).blocks(1000, 5000), 6);  // 6000 / 1024 items
  EXPECT_EQ(SpmvConfig::from(spmv("merge", 256, 1, 4)).blocks(24, 1000), 1);
  EXPECT_EQ(SpmvConfig::from(spmv("row", 64, 1, 1)).blocks(0, 0), 1);
  // The adaptive grid depends on the row lengths, which a shape does not give.
  EXPECT_THROW(SpmvConfig::from(spmv("adaptive", 256, 1, 4)).blocks(1000, 5000), std::logic_error);
  EXPECT_THROW(SpmvConfig::from(spmv("adaptive_hot", 256, 1, 4)).blocks(1000, 5000), std::logic_error);
}

}  // namespace
}  // namespace ktune
