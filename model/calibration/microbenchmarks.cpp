#include "model/calibration/microbenchmarks.h"

#include "kernel_templates.h"
#include "workload/input_error.h"

namespace ktune {
namespace {

// Bits no chain ends with (0xffffffff: a NaN the hardware never produces, an odd pointer, a
// count no run reaches), so kt_sink only ever writes 0 (the kernels' comment says why).
constexpr int32_t kKey = -1;
constexpr int kSteps = 16;        // KT_STEPS: dependent operations per iteration
constexpr int kStreamSteps = 32;  // KT_STEPS / KT_ILP * 2 steps of KT_ILP chains
constexpr uint32_t kBlock = 256;  // KT_BLOCK
constexpr int kLoads = 8;         // KT_LOADS
constexpr int kSectorsPerLoad = 16;                        // a warp's 16-byte loads: 512 bytes
constexpr int64_t kChunkBytes = int64_t{kLoads} * kBlock * 16;  // one iteration of one block
constexpr int kStreamBlocksPerSm = 4;                      // 32 warps: enough to hide latency
constexpr int kBarrierBlocksPerSm = 8;                     // 64 warps: a full SM
constexpr uint64_t kChaseMult = 0x5851F42D4C957F2DULL;      // = 1 (mod 4): one cycle
constexpr int kChaseStrideWords = 16;                      // 128-byte lines

KernelArg buf(const char* name) { return KernelArg::of_buffer(name); }
KernelArg u32(uint32_t v) { return KernelArg::of_scalar(static_cast<int32_t>(v)); }
KernelArg i32(int64_t v) { return KernelArg::of_scalar(static_cast<int32_t>(v)); }
KernelArg u64(uint64_t v) { return KernelArg::of_scalar(static_cast<int64_t>(v)); }
KernelArg key() { return KernelArg::of_scalar(kKey); }

LaunchStep launch(const std::string& entry, uint32_t grid, uint32_t block, std::vector<KernelArg> args) {
  LaunchStep s;
  s.entry = entry;
  s.grid.x = grid;
  s.block.x = block;
  s.args = std::move(args);
  return s;
}

// A plan with the 4-byte output every kernel writes and `scratch` buffers of the given sizes.
LaunchPlan plan_of(std::vector<LaunchStep> steps, const std::vector<std::pair<std::string, size_t>>& scratch = {}) {
  LaunchPlan p;
  p.buffers.push_back({"out", {}, 4});
  for (const auto& [name, size] : scratch) p.buffers.push_back({name, {}, size});
  p.outputs = {{"out", 1, Dtype::F32}};
  p.steps = std::move(steps);
  return p;
}

using Args = std::function<std::vector<KernelArg>(int64_t n)>;

// A kernel whose arguments are (out, n, extra..., key) launched once with `grid` x `block`.
Microbenchmark single(std::string name, std::string entry, int64_t n1, int64_t n2, uint32_t grid, uint32_t block,
                      std::vector<KernelArg> extra, double units_per_n) {
  Microbenchmark b{std::move(name), std::move(entry), {n1, n2}, nullptr, nullptr};
  b.plan = [entry = b.entry, grid, block, extra](int64_t n) {
    std::vector<KernelArg> args = {buf("out"), i32(n)};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(key());
    return plan_of({launch(entry, grid, block, args)});
  };
  b.units = [units_per_n](int64_t n) { return units_per_n * static_cast<double>(n); };
  return b;
}

// One thread chasing `lines` 128-byte lines (a power of two), after kt_chase_init links them.
Microbenchmark chase(std::string name, std::string entry, int64_t n1, int64_t n2, uint64_t lines, int sms) {
  Microbenchmark b{std::move(name), std::move(entry), {n1, n2}, nullptr, nullptr};
  const uint32_t init_grid = static_cast<uint32_t>(std::min<uint64_t>((lines + kBlock - 1) / kBlock, uint64_t(sms) * 8));
  const size_t bytes = static_cast<size_t>(lines) * kChaseStrideWords * 8;
  b.plan = [entry = b.entry, init_grid, lines, bytes](int64_t n) {
    return plan_of({launch("kt_chase_init", init_grid, kBlock,
                           {buf("cells"), u64(lines), u64(kChaseStrideWords), u64(kChaseMult)}),
                    launch(entry, 1, 1, {buf("out"), buf("cells"), i32(n), key()})},
                   {{"cells", bytes}});
  };
  b.units = [](int64_t n) { return static_cast<double>(kSteps) * static_cast<double>(n); };
  return b;
}

// Streaming 16-byte reads by kStreamBlocksPerSm blocks per SM over `chunks` chunks of the
// working set; `wrap`: the chunks repeat (L1, L2) rather than each being read once (DRAM).
Microbenchmark read_stream(std::string name, std::string entry, int64_t n1, int64_t n2, uint64_t chunks, bool wrap,
                           int sms) {
  Microbenchmark b{std::move(name), std::move(entry), {n1, n2}, nullptr, nullptr};
  const uint32_t grid = static_cast<uint32_t>(sms * kStreamBlocksPerSm);
  const uint32_t mask = wrap ? static_cast<uint32_t>(chunks - 1) : 0xffffffffu;
  const size_t bytes = static_cast<size_t>(chunks) * kChunkBytes;
  b.plan = [entry = b.entry, grid, mask, bytes](int64_t n) {
    return plan_of({launch(entry, grid, kBlock, {buf("out"), buf("data"), i32(n), u32(mask), key()})},
                   {{"data", bytes}});
  };
  const double sectors_per_n = double(kStreamBlocksPerSm) * (kBlock / 32) * kLoads * kSectorsPerLoad;
  b.units = [sectors_per_n](int64_t n) { return sectors_per_n * static_cast<double>(n); };
  return b;
}

// Gathers (kt_gather_ca / kt_gather_cg) by kStreamBlocksPerSm blocks per SM over `lines`
// 128-byte lines (a power of two, at least 32), 1 << lane_shift lanes per line: 32 sectors per
// warp access in 32 or 8 lines. Units are sectors per SM.
Microbenchmark gather(std::string name, std::string entry, int64_t n1, int64_t n2, uint64_t lines, int lane_shift,
                      int sms) {
  Microbenchmark b{std::move(name), std::move(entry), {n1, n2}, nullptr, nullptr};
  const uint32_t grid = static_cast<uint32_t>(sms * kStreamBlocksPerSm);
  const uint32_t mask = static_cast<uint32_t>(lines - 1);
  const size_t bytes = static_cast<size_t>(lines) * 128;
  b.plan = [entry = b.entry, grid, mask, lane_shift, bytes](int64_t n) {
    return plan_of({launch(entry, grid, kBlock, {buf("out"), buf("data"), i32(n), u32(mask), i32(lane_shift), key()})},
                   {{"data", bytes}});
  };
  const double sectors_per_n = double(kStreamBlocksPerSm) * (kBlock / 32) * kLoads * 32;
  b.units = [sectors_per_n](int64_t n) { return sectors_per_n * static_cast<double>(n); };
  return b;
}

}  // namespace

std::vector<Microbenchmark> microbenchmarks(int sms) {
  if (sms < 1) throw InputError("calibration needs the device's SM count (got " + std::to_string(sms) + ")");
  const uint32_t stream_grid = static_cast<uint32_t>(sms * kStreamBlocksPerSm);
  const uint32_t full_grid = static_cast<uint32_t>(sms * kBarrierBlocksPerSm);
  const double stream_warps = kStreamBlocksPerSm * (kBlock / 32);  // warps per SM
  const double full_warps = kBarrierBlocksPerSm * (kBlock / 32);
  const std::vector<KernelArg> int_ab = {u32(0x9E3779B9u), u32(0x7F4A7C15u)};
  const std::vector<KernelArg> f32_ab = {KernelArg::of_scalar(0.5f), KernelArg::of_scalar(1.0f)};
  const std::vector<KernelArg> f64_ab = {KernelArg::of_scalar(0.5), KernelArg::of_scalar(1.0)};

  std::vector<Microbenchmark> all;
  // The clock first: kt_clock_spin's `n` is cycles (an int64 argument).
  Microbenchmark clock{"clock", "kt_clock_spin", {500000, 1000000}, nullptr, nullptr};
  clock.plan = [sms](int64_t cycles) {
    return plan_of({launch("kt_clock_spin", static_cast<uint32_t>(sms), 32,
                           {buf("out"), KernelArg::of_scalar(cycles), key()})});
  };
  clock.units = [](int64_t cycles) { return static_cast<double>(cycles); };
  all.push_back(clock);

  // Latency: one warp, dependent operations.
  all.push_back(single("int_alu_latency", "kt_int_chain", 2048, 4096, 1, 32, int_ab, 2 * kSteps));
  all.push_back(single("fp32_latency", "kt_fp32_chain", 4096, 8192, 1, 32, f32_ab, kSteps));
  all.push_back(single("fp64_latency", "kt_fp64_chain", 4096, 8192, 1, 32, f64_ab, kSteps));
  all.push_back(single("sfu_latency", "kt_sfu_chain", 1024, 2048, 1, 32, {}, kSteps));
  all.push_back(single("shuffle_latency", "kt_shuffle_chain", 1024, 2048, 1, 32, {i32(1)}, kSteps));
  all.push_back(single("shared_latency", "kt_shared_chain", 1024, 2048, 1, 32, {}, kSteps));
  all.push_back(single("barrier_latency", "kt_barrier_chain", 1024, 2048, 1, kBlock, {}, kSteps));
  all.push_back(single("branch_loop_latency", "kt_branch_loop", 65536, 131072, 1, 32, {i32(0)}, 1));
  Microbenchmark atomic{"atomic_latency", "kt_atomic_chain", {64, 128}, nullptr, nullptr};
  atomic.plan = [](int64_t n) {
    return plan_of({launch("kt_atomic_chain", 1, 1, {buf("out"), buf("cell"), i32(n), u32(0), key()})}, {{"cell", 128}});
  };
  atomic.units = [](int64_t n) { return static_cast<double>(kSteps) * static_cast<double>(n); };
  all.push_back(atomic);
  // Block dispatch: n empty one-warp blocks, device-wide cycles per block (not per SM).
  Microbenchmark dispatch{"block_dispatch_gap", "kt_empty_blocks", {int64_t{sms} * 256, int64_t{sms} * 512}, nullptr, nullptr};
  dispatch.plan = [](int64_t n) {
    return plan_of({launch("kt_empty_blocks", static_cast<uint32_t>(n), 32, {buf("out"), i32(n), key()})});
  };
  dispatch.units = [](int64_t n) { return static_cast<double>(n); };
  all.push_back(dispatch);
  // Pointer chases: 16 KiB stays in L1; 8 MiB misses L1 and fits any L2 we target; 1 GiB is
  // many times any L2, so nearly every step goes to device memory.
  all.push_back(chase("l1_latency", "kt_chase_l1", 512, 1024, 128, sms));
  all.push_back(chase("l2_latency", "kt_chase_cg", 256, 512, uint64_t{1} << 16, sms));
  all.push_back(chase("dram_latency", "kt_chase_cg", 128, 256, uint64_t{1} << 23, sms));

  // Gap: every SM busy; units are per SM.
  all.push_back(single("int_alu_gap", "kt_int_stream", 256, 512, stream_grid, kBlock, int_ab,
                       2.0 * kStreamSteps * stream_warps));
  all.push_back(single("fp32_gap", "kt_fp32_stream", 1024, 2048, stream_grid, kBlock, f32_ab, kStreamSteps * stream_warps));
  all.push_back(single("fp64_gap", "kt_fp64_stream", 512, 1024, stream_grid, kBlock, f64_ab, kStreamSteps * stream_warps));
  all.push_back(single("sfu_gap", "kt_sfu_stream", 128, 256, stream_grid, kBlock, {}, kStreamSteps * stream_warps));
  all.push_back(single("shuffle_gap", "kt_shuffle_stream", 256, 512, stream_grid, kBlock, {i32(1)},
                       kStreamSteps * stream_warps));
  all.push_back(single("issue_gap", "kt_issue_stream", 1024, 2048, stream_grid, kBlock,
                       {f32_ab[0], f32_ab[1], int_ab[0], int_ab[1]}, kStreamSteps * stream_warps));
  all.push_back(single("shared_gap", "kt_shared_stream", 1024, 2048, stream_grid, kBlock, {}, kSteps * stream_warps));
  all.push_back(single("barrier_gap", "kt_barrier_stream", 256, 512, full_grid, kBlock, {}, kSteps * full_warps));
  all.push_back(single("branch_loop_gap", "kt_branch_loop", 8192, 16384, full_grid, kBlock, {i32(0)}, full_warps));
  // Atomics to distinct sectors: per address (lane) per SM; two blocks per SM keep the
  // 4 slots x threads x 32 bytes inside L2.
  const uint32_t atomic_grid = static_cast<uint32_t>(sms * 2);
  Microbenchmark atomics{"atomic_gap", "kt_atomic_stream", {64, 128}, nullptr, nullptr};
  atomics.plan = [atomic_grid](int64_t n) {
    return plan_of({launch("kt_atomic_stream", atomic_grid, kBlock, {buf("out"), buf("cells"), i32(n), key()})},
                   {{"cells", size_t{4} * atomic_grid * kBlock * 32}});
  };
  atomics.units = [](int64_t n) { return double(kSteps) * 2 * kBlock * static_cast<double>(n); };
  all.push_back(atomics);
  // Same-address atomics: device-wide operations, not per SM (an extra, not a table entry).
  Microbenchmark same{"atomic_same_address_gap", "kt_atomic_same_stream", {2, 4}, nullptr, nullptr};
  same.plan = [atomic_grid](int64_t n) {
    return plan_of({launch("kt_atomic_same_stream", atomic_grid, kBlock, {buf("out"), buf("cell"), i32(n), key()})},
                   {{"cell", 128}});
  };
  same.units = [atomic_grid](int64_t n) { return double(kSteps) * atomic_grid * kBlock * static_cast<double>(n); };
  all.push_back(same);
  // Streaming reads: 64 KiB per SM re-read through L1; 16 MiB re-read through L2; device
  // memory read once, n * grid chunks (up to 128 chunks per SM: about 1 GiB on 132 SMs).
  all.push_back(read_stream("l1_gap", "kt_read_l1", 256, 512, 2, true, sms));
  all.push_back(read_stream("l2_gap", "kt_read_l2", 64, 128, 512, true, sms));
  all.push_back(read_stream("dram_gap", "kt_read_dram", 32, 64, uint64_t{64} * stream_grid, false, sms));
  // Gathers, per sector per SM: one lane per line (32 lines an access: x of an irregular
  // matrix) and four (8 lines of 4 sectors: a few lanes per row), from 64 KiB (L1), 16 MiB
  // (L2; through L1 too, where a miss allocates) and 1 GiB (device memory).
  all.push_back(gather("l1_gather_gap", "kt_gather_ca", 64, 128, 512, 0, sms));
  all.push_back(gather("l1_gather4_gap", "kt_gather_ca", 64, 128, 512, 2, sms));
  all.push_back(gather("l2_gather_gap", "kt_gather_cg", 32, 64, uint64_t{1} << 17, 0, sms));
  all.push_back(gather("l2_gather4_gap", "kt_gather_cg", 32, 64, uint64_t{1} << 17, 2, sms));
  all.push_back(gather("l2_gather_via_l1_gap", "kt_gather_ca", 32, 64, uint64_t{1} << 17, 0, sms));
  all.push_back(gather("dram_gather_gap", "kt_gather_cg", 16, 32, uint64_t{1} << 23, 0, sms));
  all.push_back(gather("dram_gather4_gap", "kt_gather_cg", 16, 32, uint64_t{1} << 23, 2, sms));
  return all;
}

CompileRequest microbenchmark_compile_request(const std::string& arch) {
  CompileRequest r;
  r.code = std::string(templates::k_calibration_benchmarks_cu);
  r.entries = {"kt_int_chain",      "kt_fp32_chain",   "kt_fp64_chain",     "kt_sfu_chain",     "kt_shuffle_chain",
               "kt_shared_chain",   "kt_atomic_chain", "kt_barrier_chain",  "kt_branch_loop",   "kt_clock_spin",
               "kt_int_stream",     "kt_fp32_stream",  "kt_fp64_stream",    "kt_sfu_stream",    "kt_shuffle_stream",
               "kt_issue_stream",   "kt_shared_stream", "kt_barrier_stream", "kt_atomic_stream", "kt_atomic_same_stream",
               "kt_chase_init",     "kt_chase_l1",     "kt_chase_cg",       "kt_read_l1",       "kt_read_l2",
               "kt_read_dram",      "kt_empty_blocks", "kt_gather_ca",      "kt_gather_cg"};
  r.arch = arch;
  return r;
}

}  // namespace ktune
