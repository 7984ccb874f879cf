#include "model/emulator/gather_reuse.h"

#include <algorithm>
#include <numeric>

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

// A band is told from a scatter when its rows' starts are at least this many runs apart.
constexpr double kBandPitchRuns = 2;

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

// The share of its rows' pitch that one block's sectors of a vector cover: runs of
// consecutive sectors, their median length over the gcd of their starts' distances (the row
// pitch where the rows are any). 1 for a scatter of single sectors, or rows read whole.
double band_share(std::vector<uint64_t>& sectors) {
  std::sort(sectors.begin(), sectors.end());
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
  std::vector<uint64_t> lengths;
  uint64_t pitch = 0, first = 0;
  for (size_t i = 0; i < sectors.size();) {
    size_t j = i + 1;
    while (j < sectors.size() && sectors[j] == sectors[j - 1] + 1) ++j;
    if (i == 0) first = sectors[i];
    else pitch = std::gcd(pitch, sectors[i] - first);
    lengths.push_back(j - i);
    i = j;
  }
  if (lengths.size() < 3) return 1;
  std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
  const double run = static_cast<double>(lengths[lengths.size() / 2]);
  return static_cast<double>(pitch) >= kBandPitchRuns * run ? run / static_cast<double>(pitch) : 1;
}

}  // namespace

GatherReuse::GatherReuse(const std::vector<BlockTrace>& samples, double grid_scale, double resident_share) {
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
  // Vectors: runs of gathering loads whose regions overlap.
  std::vector<int> vector_of(pcs, -1);
  std::vector<Range> vectors;
  std::vector<double> vector_reads;
  for (size_t first = 0; first < gathering.size();) {
    Range vector = stats[gathering[first]].bounds;
    double reads = 0;
    size_t end = first;
    for (; end < gathering.size() && stats[gathering[end]].bounds.lo <= vector.hi; ++end) {
      vector.add(stats[gathering[end]].bounds.hi);
      reads += stats[gathering[end]].reads;
      vector_of[gathering[end]] = static_cast<int>(vectors.size());
    }
    vectors.push_back(vector);
    vector_reads.push_back(reads);
    first = end;
  }
  // Each vector's band: the blocks' shares weighted by their reads of it.
  std::vector<double> share_sum(vectors.size(), 0), share_weight(vectors.size(), 0);
  std::vector<std::vector<uint64_t>> block_sectors(vectors.size());
  for (const BlockTrace& b : samples) {
    for (auto& s : block_sectors) s.clear();
    for (const WarpTrace& w : b.warps)
      for (const TraceOp& op : w.ops) {
        if (op.op != OpClass::GlobalLoad || op.pc >= pcs || vector_of[op.pc] < 0) continue;
        std::vector<uint64_t>& s = block_sectors[vector_of[op.pc]];
        s.insert(s.end(), w.sectors.begin() + op.sector_begin, w.sectors.begin() + op.sector_begin + op.transactions);
      }
    for (size_t v = 0; v < vectors.size(); ++v) {
      if (block_sectors[v].empty()) continue;
      const double weight = static_cast<double>(block_sectors[v].size());
      share_sum[v] += weight * band_share(block_sectors[v]);
      share_weight[v] += weight;
    }
  }
  const double resident = std::clamp(resident_share, 0.0, 1.0);
  std::vector<Gather> by_vector(vectors.size());
  for (size_t v = 0; v < vectors.size(); ++v) {
    const double bytes = vectors[v].sectors() * kSectorBytes;
    const double band = share_weight[v] > 0 ? share_sum[v] / share_weight[v] : 1;
    by_vector[v] = {vector_reads[v] * scale / vectors[v].sectors(), bytes, std::min(1.0, band + resident)};
    vector_bytes_ += bytes;
    live_vector_bytes_ += bytes * by_vector[v].live_share;
  }
  by_pc_.assign(pcs, Gather{});
  for (uint32_t pc : gathering) by_pc_[pc] = by_vector[static_cast<size_t>(vector_of[pc])];
}

double GatherReuse::reads_per_sector(uint32_t pc) const {
  return pc < by_pc_.size() ? by_pc_[pc].reads_per_sector : 0;
}

double GatherReuse::region_bytes(uint32_t pc) const {
  return pc < by_pc_.size() ? by_pc_[pc].region_bytes : 0;
}

double GatherReuse::live_share(uint32_t pc) const {
  return pc < by_pc_.size() ? by_pc_[pc].live_share : 1;
}

}  // namespace ktune
