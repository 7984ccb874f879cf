#include "model/emulator/cache_estimate.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "model/emulator/gather_reuse.h"
#include "model/emulator/sector_table.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

constexpr double kSectorBytes = 32;

bool is_global_access(OpClass op) { return op == OpClass::GlobalLoad || op == OpClass::GlobalStore; }

// A uniform draw in [0, 1) from (sector, block, access): deterministic, and independent
// between accesses so that a sector re-touched often hits in proportion.
double draw(uint64_t sector, uint64_t block, uint64_t access, uint64_t salt) {
  uint64_t x = sector * 0x9e3779b97f4a7c15ULL ^ (block + 1) * 0xc2b2ae3d27d4eb4fULL ^
               (access + 1) * 0x165667b19e3779f9ULL ^ salt;
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

// A block's global accesses roughly in time order, as (warp, op) pairs: op j of every warp, then
// op j + 1, since resident warps progress together. Listed once for both passes, which would
// otherwise each step over every op of every warp.
std::vector<std::pair<uint32_t, uint32_t>> global_accesses_in_order(const BlockTrace& block) {
  size_t longest = 0;
  for (const WarpTrace& w : block.warps) longest = std::max(longest, w.ops.size());
  std::vector<std::pair<uint32_t, uint32_t>> order;
  for (size_t j = 0; j < longest; ++j)
    for (size_t wi = 0; wi < block.warps.size(); ++wi) {
      const WarpTrace& w = block.warps[wi];
      if (j < w.ops.size() && is_global_access(w.ops[j].op))
        order.emplace_back(static_cast<uint32_t>(wi), static_cast<uint32_t>(j));
    }
  return order;
}

// Visits each sector of the block's global accesses in that order.
template <typename F>
void for_each_global_access(const BlockTrace& block, const std::vector<std::pair<uint32_t, uint32_t>>& order, F&& f) {
  for (const auto& [wi, j] : order) {
    const WarpTrace& w = block.warps[wi];
    const TraceOp& op = w.ops[j];
    for (uint32_t k = 0; k < op.transactions; ++k) f(wi, j, op, w.sectors[op.sector_begin + k]);
  }
}

// Checks every global access's sectors lie in its warp's list; returns how many there are.
size_t check_sectors(const BlockTrace& block) {
  size_t accesses = 0;
  for (const WarpTrace& w : block.warps)
    for (const TraceOp& op : w.ops) {
      if (!is_global_access(op.op)) continue;
      if (static_cast<size_t>(op.sector_begin) + op.transactions > w.sectors.size())
        throw InputError("block " + std::to_string(block.block) + ": a global access at pc " +
                         std::to_string(op.pc) + " names sectors beyond its warp's " +
                         std::to_string(w.sectors.size()));
      accesses += op.transactions;
    }
  return accesses;
}

enum Level { kL1, kL2, kDram };

}  // namespace

PreparedSamples prepare_samples(const std::vector<BlockTrace>& samples, const CacheContext& context) {
  if (samples.size() >= SectorEntry::kNoBlock)
    throw InputError("the cache estimate takes fewer than " + std::to_string(SectorEntry::kNoBlock) + " sampled blocks");
  size_t accesses = 0;
  for (const BlockTrace& b : samples) accesses += check_sectors(b);

  // Counting pass: in how many sampled blocks each sector appears; each block's footprint.
  const double grid_blocks = context.grid_blocks > 0 ? context.grid_blocks : static_cast<double>(samples.size()) * std::max(1.0, context.grid_scale);
  const double resident = std::max(1.0, context.resident_blocks);
  const GatherReuse gathers(samples, context.grid_scale, resident / grid_blocks);
  // Sized for a quarter of the accesses being distinct sectors (a stream's all are, a gather's
  // few): at most two growths, and no large table for a trace that re-reads a small vector.
  SectorTable table(accesses / 4);
  // Each block's distinct sectors, and how many of them it first reached by a gather.
  std::vector<double> block_distinct(samples.size(), 0), block_gathered(samples.size(), 0);
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> orders;
  orders.reserve(samples.size());
  for (const BlockTrace& b : samples) orders.push_back(global_accesses_in_order(b));
  for (uint32_t bi = 0; bi < samples.size(); ++bi) {
    for_each_global_access(samples[bi], orders[bi], [&](size_t, size_t, const TraceOp& op, uint64_t sector) {
      SectorEntry& e = table.at(sector);
      const bool gather = op.op == OpClass::GlobalLoad && gathers.reads_per_sector(op.pc) > 1;
      if (gather) e.gathered = true;
      if (!(op.op == OpClass::GlobalLoad && op.evict_first)) e.normal = true;
      if (e.last_block != bi) {
        block_gathered[bi] += gather;
        // A pair of touchers resident together is enough: their reuse is short-distance.
        if (e.last_block != SectorEntry::kNoBlock &&
            std::abs(static_cast<double>(samples[bi].block - samples[e.last_block].block)) < context.resident_blocks)
          e.near = true;
        e.last_block = static_cast<uint16_t>(bi);
        e.blocks += 1;
        block_distinct[bi] += 1;
      }
    });
  }
  // The grid's footprint: streamed (private) sectors scale with the grid's work, shared ones
  // are the grid's already, and gathered vectors count once however often they are read.
  double private_sectors = 0, shared_sectors = 0, gathered_sectors = 0;
  double normal_private = 0, normal_shared = 0;  // of them, those L2 keeps at normal priority
  table.for_each([&](const SectorEntry& e) {
    (e.gathered ? gathered_sectors : e.blocks >= 2 ? shared_sectors : private_sectors) += 1;
    if (e.normal && !e.gathered) (e.blocks >= 2 ? normal_shared : normal_private) += 1;
  });
  const double scale = std::max(1.0, context.grid_scale);
  const double normal_bytes = kSectorBytes * (normal_private * scale + normal_shared);
  const double partition_bytes = context.l2_bytes / std::max(1.0, context.l2_partitions);
  PreparedSamples out;
  out.cache.grid_footprint_bytes = kSectorBytes * (private_sectors * scale + shared_sectors) +
                                   std::min(kSectorBytes * gathered_sectors * scale, gathers.vector_bytes());
  // The blocks resident at once: as many typical blocks, whose footprint is the sampled
  // footprint per unit of work times the grid's work per block (a plain mean of the samples
  // would let a few heavy ones stand for every resident block); never more than the grid's.
  // What they gather from one vector they share: that part is at most the vector.
  double sampled_distinct = 0, sampled_gathered = 0;
  for (size_t bi = 0; bi < samples.size(); ++bi) {
    sampled_distinct += block_distinct[bi];
    sampled_gathered += block_gathered[bi];
  }
  const double per_block = kSectorBytes * scale / grid_blocks;
  out.cache.resident_footprint_bytes =
      std::min(out.cache.grid_footprint_bytes,
               per_block * (sampled_distinct - sampled_gathered) * resident +
                   std::min(per_block * sampled_gathered * resident, gathers.live_vector_bytes()));
  // L2 keeps a sector over a reuse distance of `bytes` (random-replacement approximation);
  // no reuse distance is shorter than the footprint of the blocks resident together.
  const auto l2_keeps = [&](double bytes) {
    bytes = std::max(bytes, out.cache.resident_footprint_bytes);
    return bytes > 0 ? std::min(1.0, context.l2_bytes / bytes) : 1.0;
  };
  const double short_keep = l2_keeps(0);

  // Classifying pass: a level per sector access, counted per op.
  const double l1_weight = context.line_weights.l1, dram_weight = context.line_weights.dram;
  SectorTable dram_lines;  // keyed by line: the last block that asked device memory for it
  out.blocks.reserve(samples.size());
  for (uint32_t bi = 0; bi < samples.size(); ++bi) {
    const BlockTrace& trace = samples[bi];
    EmuBlock block;
    block.block = trace.block;
    block.warps.resize(trace.warps.size());
    // Per op and level: sectors served there, and the 128-byte lines that reach it (an op's
    // sectors come sorted, so a level sees a new line when the line changes): every line at
    // L1, the lines of L1's misses at L2 (its requests), and at device memory a block's first
    // request of a line.
    std::vector<std::vector<std::array<uint32_t, 3>>> levels(trace.warps.size()), lines(trace.warps.size());
    for (size_t wi = 0; wi < trace.warps.size(); ++wi) {
      const WarpTrace& w = trace.warps[wi];
      block.warps[wi].ops.reserve(w.ops.size());
      for (const TraceOp& op : w.ops) block.warps[wi].ops.push_back(lower_compute_op(op));
      levels[wi].assign(w.ops.size(), {0, 0, 0});
      lines[wi].assign(w.ops.size(), {0, 0, 0});
    }
    const double l1_sectors_per_block = context.l1_bytes_per_block / kSectorBytes;
    const double l1_keeps = block_distinct[bi] > 0
        ? std::min(1.0, context.l1_bytes_per_block / (kSectorBytes * block_distinct[bi]))
        : 1.0;
    uint64_t access = 0;
    size_t op_wi = SIZE_MAX, op_j = SIZE_MAX;
    std::array<uint64_t, 3> last_line{};
    for_each_global_access(trace, orders[bi], [&](size_t wi, size_t j, const TraceOp& op, uint64_t sector) {
      if (wi != op_wi || j != op_j) {
        op_wi = wi;
        op_j = j;
        last_line.fill(UINT64_MAX);
      }
      SectorEntry& e = table.at(sector);
      const bool retouch = e.classified_by == bi;
      // L1 keeps a re-touched sector when the block's whole footprint fits its share, or when
      // few sectors passed since the last touch (a thread walking a long row re-reads each
      // sector of it at once, however large the block's footprint).
      const double since = retouch ? static_cast<double>(static_cast<uint32_t>(access) - e.last_access) : 0;
      const double l1_hit = retouch ? std::max(l1_keeps, since > 0 ? std::min(1.0, l1_sectors_per_block / since) : 1.0) : 0;
      e.classified_by = static_cast<uint16_t>(bi);
      e.last_access = static_cast<uint32_t>(access);
      const bool load = op.op == OpClass::GlobalLoad;
      const double u1 = draw(sector, bi, access, 1), u2 = draw(sector, bi, access, 2);
      ++access;
      Level level;
      if (context.measured) {
        level = load && u1 < context.measured->l1_hit ? kL1
                : u2 < context.measured->l2_hit       ? kL2
                                                      : kDram;
      } else if (load && retouch && u1 < l1_hit) {
        level = kL1;
      } else {
        double l2_hit = 0;  // private and cold, unless the grid gathers it again (gather_reuse.h)
        const double reads = load ? gathers.reads_per_sector(op.pc) : 0;
        if (reads > 1 && e.blocks < 2 && !retouch) {
          // The region stays in each partition while 1 / reads of the normal-priority data passes
          // through it: a vector that fits misses once a sector. A band gathered in turn keeps
          // only its share live, and its reads see only its share of the other data pass.
          const double between = (gathers.region_bytes(op.pc) + normal_bytes / reads) * gathers.live_share(op.pc);
          l2_hit = (1.0 - 1.0 / reads) * std::min(1.0, partition_bytes / between);
        } else if (retouch) {
          l2_hit = short_keep;
        } else if (e.near) {
          l2_hit = (1.0 - 1.0 / e.blocks) * short_keep;
        } else if (e.blocks >= 2) {
          const double touchers = e.blocks * scale;
          l2_hit = (1.0 - std::min(1.0, 1.0 / touchers)) * l2_keeps(out.cache.grid_footprint_bytes / touchers);
        }
        level = u2 < l2_hit ? kL2 : kDram;
      }
      levels[wi][j][level] += 1;
      if (last_line[kL1] != sector / 4) {
        last_line[kL1] = sector / 4;
        lines[wi][j][kL1] += 1;
      }
      if (level != kL1 && last_line[kL2] != sector / 4) {
        last_line[kL2] = sector / 4;
        lines[wi][j][kL2] += 1;
      }
      if (level == kDram) {
        // Device memory serves a line the block asked for before from the same open row: only
        // a block's first request for a line pays its cost (a few lanes walking their rows
        // take each line's sectors in turn, over several accesses).
        SectorEntry& line = dram_lines.at(sector / 4);
        if (line.classified_by != bi) {
          line.classified_by = static_cast<uint16_t>(bi);
          lines[wi][j][level] += 1;
        }
      }
      (load ? out.cache.load_sectors : out.cache.store_sectors) += 1;
    });
    // Global ops use each pipe their sectors pass; one with no sectors (all lanes off) still
    // waits an L1 latency.
    for (size_t wi = 0; wi < trace.warps.size(); ++wi) {
      for (size_t j = 0; j < trace.warps[wi].ops.size(); ++j) {
        if (!is_global_access(trace.warps[wi].ops[j].op)) continue;
        EmuOp& op = block.warps[wi].ops[j];
        const std::array<uint32_t, 3>& at = levels[wi][j];
        const std::array<uint32_t, 3>& seen = lines[wi][j];
        const uint32_t all = at[kL1] + at[kL2] + at[kDram], below_l1 = at[kL2] + at[kDram];
        op.use_count = 0;
        op.uses[op.use_count++] = {Resource::L1, all, access_cost(all, seen[kL1], l1_weight)};
        if (below_l1 > 0) {
          op.uses[op.use_count++] = {Resource::L2Tag, seen[kL2], static_cast<double>(seen[kL2])};
          op.uses[op.use_count++] = {Resource::L2, below_l1, static_cast<double>(below_l1)};
        }
        if (at[kDram] > 0)
          op.uses[op.use_count++] = {Resource::Dram, at[kDram], access_cost(at[kDram], seen[kDram], dram_weight)};
      }
    }
    double barriers = 0;  // one admission per barrier of the block, not per warp
    for (const EmuWarp& w : block.warps) {
      block.transactions[static_cast<size_t>(Resource::Issue)] += static_cast<double>(w.ops.size());
      barriers = std::max<double>(barriers, std::count_if(w.ops.begin(), w.ops.end(),
                                                          [](const EmuOp& op) { return op.barrier; }));
      for (const EmuOp& op : w.ops) {
        for (uint8_t u = 0; u < op.use_count; ++u)
          block.transactions[static_cast<size_t>(op.uses[u].resource)] += op.uses[u].count;
      }
    }
    block.transactions[static_cast<size_t>(Resource::Barrier)] = barriers;
    for (const auto& warp_levels : levels)
      for (const std::array<uint32_t, 3>& at : warp_levels) {
        out.cache.l1_sectors += at[kL1];
        out.cache.l2_sectors += at[kL2];
        out.cache.dram_sectors += at[kDram];
      }
    out.blocks.push_back(std::move(block));
  }
  if (out.cache.load_sectors > 0) out.cache.l1_hit_rate = out.cache.l1_sectors / out.cache.load_sectors;
  const double below_l1 = out.cache.l2_sectors + out.cache.dram_sectors;
  if (below_l1 > 0) out.cache.l2_hit_rate = out.cache.l2_sectors / below_l1;
  return out;
}

}  // namespace ktune
