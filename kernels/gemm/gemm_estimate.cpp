#include "kernels/gemm/gemm_estimate.h"

#include <algorithm>
#include <cmath>

#include "kernels/gemm/gemm_schedule.h"
#include "kernels/gemm/gemm_staging.h"

namespace ktune {

namespace {

// L2's bytes in the time of one unit of the iteration cost (an FMA's issue time per lane, about
// 5.7 cycles): an SM's port takes about 64 a cycle, the whole L2 serves about 43 a cycle an SM
// when every SM reads (H100: 128 x 256 tiles at 8192^3 read 12.9 GB in 1405 us, 9.2 TB/s; 64
// CTAs of 128 x 128 tiles at 256 x 4096 x 14336 ran at 74% of the tensor cores' rate).
constexpr double kL2PortBytesPerUnit = 64.0 * 5.7;
constexpr double kL2SharedBytesPerUnit = 43.0 * 5.7;
// The H100's L2.
constexpr double kL2Bytes = 50e6;
// An SM's dense bf16 MACs in one unit: 989 TFLOP/s over 132 SMs at 1.755 GHz is about 2130 a
// cycle; mma.sync reaches about two thirds of it.
constexpr double kWgmmaMacsPerUnit = 2130.0 * 5.7;
constexpr double kSyncMacsPerUnit = 1420.0 * 5.7;
// An SM's f64 MACs in one unit through DMMA: 67 TFLOP/s over 132 SMs at 1.755 GHz is
// about 145 a cycle.
constexpr double kDmmaMacsPerUnit = 145.0 * 5.7;
// tf32's m16n8k8 mma.sync: dense tf32 runs at half of bf16's rate (495 against 989 TFLOP/s),
// and mma.sync at about two thirds of it.
constexpr double kTf32SyncMacsPerUnit = kSyncMacsPerUnit / 2;
// Shared memory's bytes an SM reads a cycle (ldmatrix's fragments), in units.
constexpr double kSharedBytesPerUnit = 128.0 * 5.7;
// A cp.async ring's turn: each thread waits for its own copies of the slice, then the whole CTA
// meets at a barrier before the next copies may go out, about 1100 cycles a slice. Fitted on
// the 24 H100 shapes of bench/data/gemm_h100_* (the TMA ring, whose consumers wait on an
// mbarrier the copies complete, pays none: 4096^3, 128 x 256, 248 against 303 us).
constexpr double kRingTurnUnits = 200;
// DMMA's turn, about 285 cycles a slice. Fitted on the f64 searches of bench/data/gemm_h100_a7bd04b
// and _3ab5353 (25 to 100 rank them alike), when the kernel's warps read a slice's fragments only
// after its barrier; since they load a step ahead (728275b) it has not been refitted, and still
// ranks the H200 searches of bench/data/gemm_h200_78ee630 (median Spearman 0.94, the best in the
// top 5 on 6 of 7: bench/results/emulator_accuracy_gemm_h200_78ee630_f64.md).
constexpr double kDmmaTurnUnits = 50;

// A CTA's start before its first product: launch, barrier set-up and the first slice's trip
// from DRAM (about a microsecond). A persistent CTA pays it once for all its tiles, since its
// producer loads the next tile's slices while the consumers store the last.
constexpr double kCtaFillUnits = 300;

// A slice's trip from L2 to shared memory (about 700 cycles), in units: a ring keeps
// stages - 1 slices in flight (cp.async feeding wgmma: stages - 2), so an iteration takes at
// least this over their count, however little it computes.
constexpr double kSliceLatencyUnits = 700.0 / 5.7;

// The device's DRAM bytes in one unit as the launches beside the product move them, read and
// written (the staging passes of gemm_staging.h before it, split-K's sum after it): 3.0 TB/s
// (H200 at 425a37c: 128 MB staged in 42 us, 4096^3 in layout tn against nt with one key).
constexpr double kSideLaunchBytesPerUnit = 3.0e12 / (1.755e9 / 5.7);

struct CtaCosts {
  double serial = 0;      // the launches before and after the product's, which no CTA overlaps
  double tile_store = 0;  // a, b: a tile's elements per thread
  double iteration = 0;   // c
  double peer = 0;        // d
};

// CTAs an SM runs at once (shared memory, threads, roughly registers, and the grid itself):
// they share its L2 bandwidth.
double resident_ctas(const GemmShape& s, const GemmConfig& c, const Precision& p, const GemmSchedule& g) {
  return std::max(1.0, std::min(static_cast<double>(c.resident_ctas(s, p)), std::ceil(static_cast<double>(g.grid) / kGemmSms)));
}

CtaCosts costs_of(const GemmShape& s, const GemmConfig& c, const Precision& p, const GemmSchedule& g) {
  CtaCosts k;
  const double sum_bytes = g.reduce_launch() ? s.c_elements() * (static_cast<double>(g.split) * dtype_size(p.accumulate) +
                                                                 dtype_size(p.output))
                                             : 0.0;
  k.serial = (GemmStaging::of(s, c, p).moved_bytes(s, p) + sum_bytes) / kSideLaunchBytesPerUnit;
  const double threads = static_cast<double>(c.threads());
  // A tile's store: its threads' store instructions, or its bytes through the SM's L2 port,
  // whichever is slower; a Stream-K or split-K partial goes out and each peer's comes back at
  // the accumulator's size (128 x 256 in f32: 128 KB, about two slices' worth).
  const double tile = static_cast<double>(c.bm * c.bn);
  k.tile_store = std::max(tile / threads, tile * dtype_size(p.output) / kL2PortBytesPerUnit);
  k.peer = std::max(tile / threads, tile * dtype_size(p.accumulate) / kL2PortBytesPerUnit);
  const double loads = static_cast<double>((c.bm + c.bn) * c.bk) / threads;
  const double per_copy = 16.0 / static_cast<double>(dtype_size(p.input));  // elements in a tensor kernel's 16-byte copy
  // Every kernel reads its slices from L2, whose bandwidth an SM's resident CTAs share. A
  // cluster of 2 reads the shared operand's half-slice per CTA, yet is charged its whole slice:
  // on the H200 its searches measure clusters of 2 within about 3% of single CTAs (bf16 at
  // 78ee630, tf32 at df8fbcd), and without the credit the first model ranks every GEMM search
  // as well or better (tf32 median Spearman 0.65 -> 0.74 and 0.70 -> 0.76, the H100's bf16
  // searches of 7bf3aa6 a co-best in the top 5 on 10 -> 12 of 15; bench/NOTES.md).
  const double resident = resident_ctas(s, c, p, g);
  const double active_sms = std::min(static_cast<double>(kGemmSms), static_cast<double>(g.grid));
  const double sm_rate = std::min(kL2PortBytesPerUnit, kL2SharedBytesPerUnit * kGemmSms / active_sms);
  const double l2 = static_cast<double>((c.bm + c.bn) * c.bk) * dtype_size(p.input) * resident / sm_rate;
  const double in_flight = c.kernel == GemmKernel::Simt ? static_cast<double>(c.stages)
                           : c.kernel == GemmKernel::Wgmma && c.loader == GemmLoader::CpAsync
                               ? static_cast<double>(c.stages - 2)
                               : static_cast<double>(c.stages - 1);
  const double latency = kSliceLatencyUnits / std::max(1.0, in_flight);
  double issue = 0, math = 0;
  if (c.kernel == GemmKernel::Simt) {
    // f64 FMAs issue at half the f32 rate on sm_90.
    const double fma = p.accumulate == Dtype::F64 ? 2.0 : 1.0;
    issue = 2 * loads;
    math = static_cast<double>(c.bk) * (c.tm + c.tn + fma * c.tm * c.tn);
  } else if (c.kernel == GemmKernel::Dmma) {
    // 16 bytes a copy; each warp reads its fragments of A and B from shared memory, and the
    // SM's tensor cores, one a scheduler, serve the resident CTAs' warps.
    issue = loads / per_copy * 4 + kDmmaTurnUnits;
    const double warps = static_cast<double>((c.bm / c.tm) * (c.bn / c.tn));
    const double cores = std::min(1.0, warps * resident / 4);
    const double macs = static_cast<double>(c.bm * c.bn * c.bk);
    const double fragment_bytes = warps * static_cast<double>((c.tm + c.tn) * c.bk) * dtype_size(p.input);
    const double rate = p.input == Dtype::TF32 ? kTf32SyncMacsPerUnit : kDmmaMacsPerUnit;
    math = std::max(macs * resident / (rate * cores), fragment_bytes * resident / kSharedBytesPerUnit);
  } else {
    // Operands arrive by cp.async, 16 bytes a copy and its address arithmetic. A warp's
    // 16x16x16 mma does 4096 MACs in about the issue time of 8 FMAs per lane; a warpgroup's
    // wgmma spreads its tile over 4 warps and keeps the tensor cores about 1.5x busier (H100:
    // about 990 against 660 TFLOP/s of bf16). TMA leaves the consumers a wait and an arrival a
    // slice instead of the copies.
    const double fragments = static_cast<double>(c.bk / 16 * (c.tm / 16) * (c.tn / 16)) * 8;
    issue = c.loader == GemmLoader::Tma ? 2.0 : loads / per_copy * 4 + kRingTurnUnits;
    // One warpgroup's wgmma already spans the SM's four tensor cores: a CTA's slice takes its
    // MACs over the SM's rate, however many warpgroups share them (H100, 2000^3: one warpgroup
    // of 128 x 128 and two of 64 x 128 within 3%).
    const double macs = static_cast<double>(c.bm * c.bn * c.bk);
    if (c.kernel == GemmKernel::Wgmma) {
      math = macs / (p.input == Dtype::TF32 ? kWgmmaMacsPerUnit / 2 : kWgmmaMacsPerUnit);  // tf32: half bf16's rate
    } else {
      // mma.sync: the SM's tensor cores shared by its resident CTAs' warps, each warp reading
      // its fragments of A and B from shared memory (small warp tiles read more a MAC).
      const double warps = static_cast<double>((c.bm / c.tm) * (c.bn / c.tn));
      const double fragment_bytes = warps * static_cast<double>((c.tm + c.tn) * c.bk) * dtype_size(p.input);
      math = std::max({fragments, macs * resident / kSyncMacsPerUnit, fragment_bytes * resident / kSharedBytesPerUnit});
    }
  }
  // A slice costs the slowest of its products, its bytes from L2 and its ring's latency
  // (bench/NOTES.md, "GEMM on the H100": wgmma outruns L2 on a 128 x 256 tile).
  k.iteration = issue + std::max({math, l2, latency});
  return k;
}

// Unit `unit`'s time in the grid-size model.
double unit_time(const GemmSchedule& g, const CtaCosts& k, int64_t unit) {
  int64_t begin, end;
  g.cta_range(unit, &begin, &end);
  double t = static_cast<double>(end - begin) * k.iteration + k.tile_store;
  // A Stream-K unit with part of a tile stores it and may add its peers'; a split-K part only
  // stores its copy (the sum is a launch of its own).
  const bool partial = begin % g.ipt != 0 || end % g.ipt != 0;
  if (partial && !g.reduce_launch()) t += k.tile_store + static_cast<double>(g.max_peers() - 1) * k.peer;
  return t;
}

// CTA `cta`'s: its start and its units, one after another.
double cta_time(const GemmSchedule& g, const CtaCosts& k, int64_t cta) {
  double t = k.serial + kCtaFillUnits;
  for (int64_t unit = cta; unit < g.units; unit += g.grid) t += unit_time(g, k, unit);
  return t;
}

}  // namespace

WorkEstimate estimate_gemm(const GemmShape& s, const GemmConfig& c, const Precision& p) {
  const GemmSchedule g = GemmSchedule::of(s, c);
  const CtaCosts k = costs_of(s, c, p, g);
  WorkEstimate e;
  e.threads_per_block = static_cast<int32_t>(c.block_threads());  // TMA's producer warp included
  e.shared_bytes_per_block = c.shared_bytes(s, p);                 // the ring: dynamic, unseen by ptxas
  e.registers_per_thread = static_cast<int32_t>(std::min<int64_t>(255, c.data_registers(p) + kGemmAddressRegisters));
  e.blocks = g.grid;
  // A CTA keeps its ring's slices in flight (registers' one or two for SIMT), which the first
  // model's Little's law counts in loads of a warp's 512 bytes: counted as one, a split-K grid of
  // one CTA an SM looked latency-bound at a fifth of DRAM's rate (H200, 384 x 384 x 16384: 65 us
  // predicted, 25 measured).
  const double slices = c.kernel == GemmKernel::Simt ? static_cast<double>(c.stages) : static_cast<double>(c.stages - 1);
  const double ring_bytes = slices * static_cast<double>((c.bm + c.bn) * c.bk) * dtype_size(p.input);
  const int64_t warps = (c.threads() + 31) / 32;
  e.loads_in_flight = std::max(1.0, ring_bytes / static_cast<double>(warps) / 512.0);
  const GemmStaging staged = GemmStaging::of(s, c, p);
  e.launches = 1 + (staged.a ? 1 : 0) + (staged.b ? 1 : 0) + (g.reduce_launch() ? 1 : 0);
  // Every warp of a CTA, the TMA loader's producer too (the first model groups warp_work into
  // blocks of threads_per_block): the CTA holds its slot until its tiles are done.
  const int64_t block_warps = (c.block_threads() + 31) / 32;
  e.warp_work.reserve(static_cast<size_t>(g.grid * block_warps));
  for (int64_t cta = 0; cta < g.grid; ++cta) {
    const double t = cta_time(g, k, cta);
    for (int64_t w = 0; w < block_warps; ++w) e.warp_work.push_back(t);
  }
  // Each tile reads its rows of A and columns of B; L2 keeps about a wave's worth of them, so
  // DRAM sees each operand about once per wave of tiles on its other dimension. Partials go
  // out and back once.
  const double in = static_cast<double>(dtype_size(p.input));
  const double waves = std::max(1.0, static_cast<double>(g.tiles) / (2.0 * kGemmSms));
  double operands = (s.a_elements() + s.b_elements()) * in * std::min(waves, static_cast<double>(g.tiles_n));
  // Stream-K CTAs run side by side at unrelated k offsets (of tiles far apart in the tile
  // order where a share spans several, of one tile's k-ranges where it spans less), so no two
  // read the same slice at about the same time: where A and B outgrow L2, DRAM serves the
  // missing fraction of every Stream-K'd slice. On an H100 at 45594db (128 x 256, 132 CTAs of
  // 15.5 tiles at 8192^3): Stream-K 2663 us with cp.async and 3835 with TMA against
  // data-parallel's 2147 and 2088 (this term: about 10 GB, 3.1 ms); at 4096^3 (3.9 tiles a CTA,
  // A and B 64 MB) 287 against 244; at 2048 x 2048 x 16384 (A and B 134 MB, 3.3 CTAs a tile)
  // 358-476 against 178 (7bf3aa6). The hybrid streams only its last waves' tiles (8192^3: 1835).
  if (g.sk_ctas > 0) {
    const double footprint = (s.a_elements() + s.b_elements()) * in;
    const double missed = std::max(0.0, 1.0 - kL2Bytes / footprint);
    const double streamed = static_cast<double>(g.sk_tiles * g.ipt) * static_cast<double>((c.bm + c.bn) * c.bk) * in;
    operands = std::max(operands, streamed * missed);
  }
  const double partials = g.workspace_elements(c) > 0 ? 2.0 * g.sk_ctas * c.bm * c.bn * dtype_size(p.accumulate) : 0;
  e.dram_bytes = operands + s.c_elements() * dtype_size(p.output) + partials +
                 (g.split > 1 ? 2.0 * s.c_elements() * g.split * dtype_size(p.accumulate) : 0);
  return e;
}

int64_t preferred_sk_grid(const GemmShape& s, const GemmConfig& c, const Precision& p) {
  GemmConfig trial = c;
  trial.decomposition = GemmDecomposition::StreamK;
  int64_t best = kGemmSms;
  double best_time = 0;
  for (int64_t grid = 4; grid <= 4 * kGemmSms; grid += 4) {
    trial.sk_grid = grid;
    const GemmSchedule g = GemmSchedule::of(s, trial);
    const CtaCosts k = costs_of(s, trial, p, g);
    // The slowest CTA, over the waves the grid takes on the device.
    const double waves = std::ceil(static_cast<double>(g.grid) / (resident_ctas(s, trial, p, g) * kGemmSms));
    const double t = cta_time(g, k, 0) * waves;
    if (grid == 4 || t < best_time) {
      best = grid;
      best_time = t;
    }
  }
  return best;
}

}  // namespace ktune
