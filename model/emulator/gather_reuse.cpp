#include "model/emulator/gather_reuse.h"

#include <algorithm>

namespace ktune {
namespace {

constexpr double kSectorBytes = 32;
// Sampled ranges summing to at least this many times the union's bounds overlap like a
// gather's (a stream's add up to at most 1); 2: on average two blocks range over each sector.
constexpr double kGatherOverlap = 2;

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
  by_pc_.assign(pcs, Gather{});
  for (uint32_t pc = 0; pc < pcs; ++pc) {
    const PcStats& s = stats[pc];
    const double region = s.bounds.sectors();
    if (s.blocks < 2 || region <= 0 || s.ranges < kGatherOverlap * region) continue;
    by_pc_[pc] = {s.reads * scale / region, region * kSectorBytes};
  }
}

double GatherReuse::reads_per_sector(uint32_t pc) const {
  return pc < by_pc_.size() ? by_pc_[pc].reads_per_sector : 0;
}

double GatherReuse::region_bytes(uint32_t pc) const {
  return pc < by_pc_.size() ? by_pc_[pc].region_bytes : 0;
}

}  // namespace ktune
