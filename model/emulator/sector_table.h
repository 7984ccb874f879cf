#pragma once
// Per-sector bookkeeping of the cache estimate: an open-addressing hash table keyed by sector
// number, because a sampled trace touches up to millions of sectors and a node-based map
// would cost more than the emulation itself.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ktune {

// 24 bytes: the table is probed once per sampled sector access, at random, so its entries'
// size is what the estimate's time goes to on a large trace.
struct SectorEntry {
  static constexpr uint16_t kNoBlock = UINT16_MAX;  // so a launch samples fewer blocks than this
  uint64_t key = 0;          // sector + 1; 0 marks an empty slot
  // The classifying pass's access count at the last touch, modulo 2^32: only the distance
  // between two touches by one block is read, and a block's accesses are far fewer.
  uint32_t last_access = 0;
  uint16_t blocks = 0;       // sampled blocks that touch it
  uint16_t last_block = kNoBlock;     // last block seen by the counting pass
  uint16_t classified_by = kNoBlock;  // last block seen by the classifying pass
  // Some pair of its sampled blocks runs at about the same time (grid indices closer than the
  // blocks resident on the whole GPU): its reuse is short-distance.
  bool near = false;
  bool gathered = false;  // read by a gathering load (gather_reuse.h): a sector of a vector
  bool normal = false;    // touched by a store or a load of normal priority (not ld.global.cs)
};
static_assert(sizeof(SectorEntry) == 24, "SectorEntry is meant to stay small");

class SectorTable {
 public:
  // Room for `expected` sectors before the first growth (a power of two of slots, >= 1024).
  explicit SectorTable(size_t expected = 0) : slots_(slots_for(expected)) {}

  SectorEntry& at(uint64_t sector) {
    if ((size_ + 1) * 10 > slots_.size() * 7) grow();
    SectorEntry& e = probe(slots_, sector + 1);
    if (e.key == 0) {
      e.key = sector + 1;
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

  static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
  }

  static SectorEntry& probe(std::vector<SectorEntry>& slots, uint64_t key) {
    const size_t mask = slots.size() - 1;
    for (size_t i = mix(key) & mask;; i = (i + 1) & mask)
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
};

}  // namespace ktune
