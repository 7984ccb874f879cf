#pragma once
// Per-sector bookkeeping of the cache estimate: an open-addressing hash table keyed by sector
// number, because a sampled trace touches up to millions of sectors and a node-based map
// would cost more than the emulation itself.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "workload/input_error.h"

namespace ktune {

// 16 bytes: the table is probed once per sampled sector access, at random, so its entries'
// size is what the estimate's time goes to on a large trace; and a million-vertex graph's
// traversal touches millions of sectors, so it is also most of an emulation's memory.
struct SectorEntry {
  static constexpr uint16_t kNoBlock = UINT16_MAX;  // so a launch samples fewer blocks than this
  SectorEntry() : near(false), gathered(false), normal(false) {}
  uint32_t key = 0;  // the sector's place in its table's window + 1; 0 marks an empty slot
  // The classifying pass's access count at the last touch, modulo 2^32: only the distance
  // between two touches by one block is read, and a block's accesses are far fewer.
  uint32_t last_access = 0;
  uint16_t blocks = 0;       // sampled blocks that touch it
  uint16_t last_block = kNoBlock;     // last block seen by the counting pass
  uint16_t classified_by = kNoBlock;  // last block seen by the classifying pass
  // Some pair of its sampled blocks runs at about the same time (grid indices closer than the
  // blocks resident on the whole GPU): its reuse is short-distance.
  bool near : 1;
  bool gathered : 1;  // read by a gathering load (gather_reuse.h): a sector of a vector
  bool normal : 1;    // touched by a store or a load of normal priority (not ld.global.cs)
};
static_assert(sizeof(SectorEntry) == 16, "SectorEntry is meant to stay small");

class SectorTable {
 public:
  // Room for `expected` sectors before the first growth (a power of two of slots, >= 1024).
  explicit SectorTable(size_t expected = 0) : slots_(slots_for(expected)) {}

  // Throws LimitError for a sector more than 2^31 sectors (64 GiB) from the first one asked for:
  // keys are 32-bit offsets in a window around it, wider than any plan the emulator can hold.
  SectorEntry& at(uint64_t sector) {
    if ((size_ + 1) * 10 > slots_.size() * 7) grow();
    const uint32_t key = key_of(sector);
    SectorEntry& e = probe(slots_, key);
    if (e.key == 0) {
      e.key = key;
      ++size_;
    }
    return e;
  }

  template <typename F>
  void for_each(F&& f) const {
    for (const SectorEntry& e : slots_)
      if (e.key != 0) f(e);
  }

 private:
  static size_t slots_for(size_t keys) {
    size_t slots = 1024;
    while (slots * 7 < keys * 10) slots *= 2;
    return slots;
  }

  uint32_t key_of(uint64_t sector) {
    constexpr uint64_t kHalf = uint64_t{1} << 31;
    if (!origin_set_) {
      origin_ = sector > kHalf ? sector - kHalf : 0;
      origin_set_ = true;
    }
    if (sector < origin_ || sector - origin_ >= UINT32_MAX)
      throw LimitError("a launch's global accesses lie too far apart for the cache estimate (over 64 GiB)");
    return static_cast<uint32_t>(sector - origin_ + 1);
  }

  static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
  }

  // A 128-byte line's four sectors start at four neighbouring slots (one or two cache lines of
  // the table): a warp's access touches consecutive sectors, and probing each at random missed
  // the host's caches once a sector (a quarter of an SpMM emulation's time went to these loads).
  static SectorEntry& probe(std::vector<SectorEntry>& slots, uint32_t key) {
    const size_t mask = slots.size() - 1;
    for (size_t i = ((mix(key >> 2) << 2) | (key & 3)) & mask;; i = (i + 1) & mask)
      if (slots[i].key == key || slots[i].key == 0) return slots[i];
  }

  void grow() {
    std::vector<SectorEntry> bigger(slots_.size() * 2);
    for (const SectorEntry& e : slots_)
      if (e.key != 0) probe(bigger, e.key) = e;
    slots_.swap(bigger);
  }

  std::vector<SectorEntry> slots_;
  size_t size_ = 0;
  uint64_t origin_ = 0;  // the window's first sector, set by the first key
  bool origin_set_ = false;
};

}  // namespace ktune
