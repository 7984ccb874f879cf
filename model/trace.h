#pragma once
// The dynamic trace of sampled thread blocks: what model/interp produces by running a kernel's
// PTX over the real arguments, and what model/emulator consumes (Algorithm 1, digest-000 §2.5).
// One TraceOp per executed warp instruction, in program order per warp, with the data it
// really touched: 32-byte sectors of global accesses, shared-memory wavefronts (bank-conflict
// degree), active lanes. Instructions that vanish in SASS (e.g. PTX register moves, address
// arithmetic folded into loads) may be left out by the interpreter.
#include <array>
#include <cstdint>
#include <vector>

namespace ktune {

// What an instruction asks of the hardware; the emulator maps it to Resources (a global load
// becomes L1/L2/DRAM sectors by its cache estimate, everything costs an Issue slot).
enum class OpClass : uint8_t {
  IntAlu,
  Fp32,
  Fp64,
  Sfu,
  Shuffle,      // shfl.sync: one wavefront through the shared-memory path
  SharedLoad,   // transactions = wavefronts (1 + bank-conflict replays)
  SharedStore,
  GlobalLoad,   // transactions = distinct 32-byte sectors touched by the active lanes
  GlobalStore,
  Atomic,       // transactions = distinct addresses (serialisation), global or shared
  Branch,
  Barrier,      // bar.sync: the warp waits until every warp of its block arrived
  Exit,
};

inline constexpr uint32_t kNoDep = UINT32_MAX;

struct TraceOp {
  uint32_t pc = 0;               // instruction index in the parsed function
  OpClass op = OpClass::IntAlu;
  bool global_read_only = false; // GlobalLoad through the non-coherent path (ld.global.nc)
  bool evict_first = false;      // GlobalLoad marked streaming (ld.global.cs): evicted first
  uint8_t active_lanes = 32;
  uint16_t transactions = 1;     // see OpClass
  // Producers: indices into WarpTrace::ops of the ops whose results this op reads (register
  // def-use along the executed path); kNoDep when unused.
  std::array<uint32_t, 3> deps{kNoDep, kNoDep, kNoDep};
  uint32_t sector_begin = 0;     // GlobalLoad/GlobalStore/Atomic: first index in WarpTrace::sectors
  uint32_t region = 0;           // code region (basic block id) for region-wise sensitivity
};

struct WarpTrace {
  std::vector<TraceOp> ops;
  std::vector<uint64_t> sectors;  // global sector numbers (address / 32), in op order
};

struct BlockTrace {
  int64_t block = 0;  // linear block index in the grid
  std::vector<WarpTrace> warps;
};

}  // namespace ktune
