#include "model/emulator/gather_reuse.h"

#include <algorithm>

namespace ktune {
namespace {

constexpr double kSectorBytes = 32;
// Sampled ranges summing to at least this many times the union's bounds overlap like a
// gather's (a stream's add up to at most 1); 2: on average two blocks range over each sector.
constexpr double kGatherOverlap = 2;
// Or each block reads under this share of the sectors its range spans: it picks sectors out
// of a vector (x of a power-law graph, where a row block's columns span a part of x), where a
// stream reads its range densely.
constexpr double kGatherDensity = 0.25;

struct Range {
  uint64_t lo = UINT64_MAX, hi = 0;
  void add(uint64_t s) { lo = std::min(lo, s); hi = std::max(hi, s); }
  double sectors() const { return lo <= hi ? static_cast<double>(hi - lo + 1) : 0; }
};

struct PcStats {
  double reads = 0;         // sampled sector reads
  double ranges = 0;        // sum of the sampled blocks' ranges
  int blocks = 0;
  Range bounds;             // over all samples
};

}  // namespace

GatherReuse::GatherReuse(const std::vector<BlockTrace>& samples, double grid_scale) {
  // Indexed by pc (an instruction index of one function, so small): hash maps here cost as
  // much as the emulation on a large trace.
  uint32_t pcs = 0;
  for (const BlockTrace& b : samples)
    for (const WarpTrace& w : b.warps)
      for (const TraceOp& op : w.ops) pcs = std::max(pcs, op.pc + 1);
  std::vector<PcStats> stats(pcs);
  std::vector<Range> block_ranges(pcs);
  for (const BlockTrace& b : samples) {
    std::fill(block_ranges.begin(), block_ranges.end(), Range{});
    for (const WarpTrace& w : b.warps) {
      for (const TraceOp& op : w.ops) {
        if (op.op != OpClass::GlobalLoad || op.transactions == 0) continue;
        PcStats& s = stats[op.pc];
        Range& r = block_ranges[op.pc];
        for (uint32_t k = 0; k < op.transactions; ++k) {
          const uint64_t sector = w.sectors[op.sector_begin + k];
          r.add(sector);
          s.bounds.add(sector);
        }
        s.reads += op.transactions;
      }
    }
    for (uint32_t pc = 0; pc < pcs; ++pc) {
      if (block_ranges[pc].sectors() <= 0) continue;
      stats[pc].ranges += block_ranges[pc].sectors();
      stats[pc].blocks += 1;
    }
  }
  const double scale = std::max(1.0, grid_scale);
  // Gathering loads whose regions overlap read one vector (x read by a kernel's short-row and
  // long-row paths, say): they share its reads. Per pc, the grid scale would misjudge a path
  // that only some samples take (the heavy samples set the scale, the random ones take the
  // common path), so the reads of a vector are pooled over its loads first.
  std::vector<uint32_t> gathering;
  for (uint32_t pc = 0; pc < pcs; ++pc) {
    const PcStats& s = stats[pc];
    const double region = s.bounds.sectors();
    if (s.blocks < 2 || region <= 0) continue;
    if (s.ranges >= kGatherOverlap * region || s.reads < kGatherDensity * s.ranges) gathering.push_back(pc);
  }
  std::sort(gathering.begin(), gathering.end(),
            [&](uint32_t a, uint32_t b) { return stats[a].bounds.lo < stats[b].bounds.lo; });
  by_pc_.assign(pcs, Gather{});
  for (size_t first = 0; first < gathering.size();) {
    Range vector = stats[gathering[first]].bounds;
    double reads = 0;
    size_t end = first;
    for (; end < gathering.size() && stats[gathering[end]].bounds.lo <= vector.hi; ++end) {
      vector.add(stats[gathering[end]].bounds.hi);
      reads += stats[gathering[end]].reads;
    }
    for (size_t k = first; k < end; ++k)
      by_pc_[gathering[k]] = {reads * scale / vector.sectors(), vector.sectors() * kSectorBytes};
    vector_bytes_ += vector.sectors() * kSectorBytes;
    first = end;
  }
}

double GatherReuse::reads_per_sector(uint32_t pc) const {
  return pc < by_pc_.size() ? by_pc_[pc].reads_per_sector : 0;
}

double GatherReuse::region_bytes(uint32_t pc) const {
  return pc < by_pc_.size() ? by_pc_[pc].region_bytes : 0;
}

}  // namespace ktune
