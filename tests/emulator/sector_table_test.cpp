// The cache estimate's sector table: one entry per sector through its growths, 32-bit keys in a
// window around the first sector, and a clear refusal past the window.
#include "model/emulator/sector_table.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace ktune {
namespace {

// Real traces' sectors lie past 2^35 (buffers start at 2^40 bytes, model/interp/host_memory.cpp).
constexpr uint64_t kBase = uint64_t{1} << 35;

TEST(SectorTable, KeepsOneEntryPerSectorThroughGrowths) {
  SectorTable table;
  for (uint64_t s = 0; s < 5000; ++s) table.at(kBase + 3 * s).blocks = static_cast<uint16_t>(s % 1000 + 1);
  size_t entries = 0;
  table.for_each([&](const SectorEntry&) { ++entries; });
  EXPECT_EQ(entries, 5000u);
  for (uint64_t s = 0; s < 5000; ++s) EXPECT_EQ(table.at(kBase + 3 * s).blocks, s % 1000 + 1) << s;
  // Looking sectors up adds nothing; their neighbours are new entries.
  EXPECT_EQ(table.at(kBase + 1).blocks, 0);
  entries = 0;
  table.for_each([&](const SectorEntry&) { ++entries; });
  EXPECT_EQ(entries, 5001u);
}

TEST(SectorTable, SectorsBelowTheFirstAreDistinctEntries) {
  SectorTable table;
  table.at(kBase).blocks = 1;
  table.at(kBase - 1).blocks = 2;
  table.at(kBase - (uint64_t{1} << 30)).blocks = 3;  // 32 GiB below
  EXPECT_EQ(table.at(kBase).blocks, 1);
  EXPECT_EQ(table.at(kBase - 1).blocks, 2);
  EXPECT_EQ(table.at(kBase - (uint64_t{1} << 30)).blocks, 3);
  // Small sector numbers (tests' traces) work from zero.
  SectorTable small;
  small.at(0).blocks = 4;
  small.at(7).blocks = 5;
  EXPECT_EQ(small.at(0).blocks, 4);
  EXPECT_EQ(small.at(7).blocks, 5);
}

TEST(SectorTable, RefusesSectorsOutsideItsWindow) {
  SectorTable table;
  table.at(kBase);
  EXPECT_NO_THROW(table.at(kBase + (uint64_t{1} << 31) - 2));  // 64 GiB above: the window's edge
  EXPECT_THROW(table.at(kBase + (uint64_t{1} << 31)), LimitError);
  EXPECT_THROW(table.at(kBase - (uint64_t{1} << 32)), LimitError);
}

TEST(SectorTable, EntryFlagsStartClearAndStayApart) {
  SectorTable table;
  SectorEntry& e = table.at(kBase);
  EXPECT_FALSE(e.near);
  EXPECT_FALSE(e.gathered);
  EXPECT_FALSE(e.normal);
  e.gathered = true;
  EXPECT_FALSE(e.near);
  EXPECT_TRUE(e.gathered);
  EXPECT_FALSE(e.normal);
  EXPECT_EQ(e.last_block, SectorEntry::kNoBlock);
  EXPECT_EQ(e.classified_by, SectorEntry::kNoBlock);
}

}  // namespace
}  // namespace ktune
