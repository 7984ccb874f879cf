#pragma once
// A functional warp-level SIMT interpreter of PTX (model/interp), run over host copies of a
// kernel's real arguments, for the data-aware abstract kernel emulator (issue 4).
//
// Each thread block runs as warps of 32 lanes with an active mask and a reconvergence stack:
// a divergent branch runs its two sides one after the other and reconverges at the immediate
// post-dominator of its block (ptx_cfg.h). Warps of a block run in turn, each until it
// reaches bar.sync or finishes; when every live warp waits at the barrier they all go on.
// Shared memory is per block; atomics apply lane by lane; shfl/vote exchange among the
// lanes of the executing path.
//
// Traced blocks give one BlockTrace (model/trace.h) each: a TraceOp per executed warp
// instruction with its active lanes, its producers (register def-use along the executed
// path, the three latest), global sectors, shared wavefronts, atomic addresses and basic
// block. Instructions that vanish in SASS are left out (ptx::vanishes_in_sass: ld.param,
// cvta, register/immediate moves); their consumers depend on the producers of their sources.
// An instruction whose guard predicate is false in every lane still issues and is traced
// with active_lanes 0 (and no memory transactions). Shared atomics list no sectors; a global
// atomic lists the sector of each distinct address (transactions = that count).
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/kernel_family.h"
#include "model/interp/host_memory.h"
#include "model/interp/prepared_kernel.h"
#include "model/ptx/ptx_module.h"
#include "model/trace.h"

namespace ktune::interp {

struct InterpretLimits {
  // A block that runs longer than this (warp instructions) is taken to hang.
  uint64_t max_warp_instructions_per_block = uint64_t{1} << 30;
};

// Runs blocks of one launch. Construct once per launch; run_block() reuses the register
// files and shared memory between blocks, so sampling many blocks allocates nothing.
class LaunchInterpreter {
 public:
  // Throws InputError when the arguments do not match the kernel's parameters or the PTX
  // holds something the interpreter cannot execute.
  LaunchInterpreter(const ptx::PtxFunction& f, const LaunchStep& step, HostMemory& memory,
                    InterpretLimits limits = {});
  ~LaunchInterpreter();
  LaunchInterpreter(const LaunchInterpreter&) = delete;
  LaunchInterpreter& operator=(const LaunchInterpreter&) = delete;

  int64_t block_count() const;
  // `block` is the linear block index (x fastest). With trace=false only the memory effects
  // remain (the fast way to compute outputs).
  BlockTrace run_block(int64_t block, bool trace = true);
  // Warp instructions executed by every run_block() so far: what interpreting cost.
  uint64_t warp_instructions() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Traces of the given blocks of `step`, in that order; memory keeps their writes.
std::vector<BlockTrace> interpret_blocks(const ptx::PtxFunction& f, const LaunchStep& step, HostMemory& memory,
                                         const std::vector<int64_t>& blocks);

// Every block of `step`, in index order, without traces.
void run_launch(const ptx::PtxFunction& f, const LaunchStep& step, HostMemory& memory);

// The blocks of a wave (CounterGrids::Wave) when the interpreter runs a loop as the device
// would: few, so that each block strides over several tiles.
constexpr uint32_t kInterpretedWave = 2;

// Who runs a launch that has a native twin (LaunchPlan::twins): the interpreter, block by
// block, or the twin.
enum class TwinnedLaunches { Interpreted, ByTwin };

// Runs `ops` of the plan's program (launches with every block, fills, copies, loops) on
// `memory`, as the measurement worker does, its launches sized from counters as `grids` says.
void run_program(const ptx::PtxModule& module, const LaunchPlan& plan, const std::vector<PlanOp>& ops,
                 HostMemory& memory, CounterGrids grids = CounterGrids::FromCounter,
                 TwinnedLaunches twinned = TwinnedLaunches::Interpreted);

// Runs a whole plan on poisoned outputs, as the GPU measurement does, and returns every
// output's values as doubles, by buffer name. For small inputs: this is how CI checks device
// kernels (and their twins) against the CPU reference, with the grids of both ways a loop runs.
Reference compute_outputs(const ptx::PtxModule& module, const LaunchPlan& plan,
                          CounterGrids grids = CounterGrids::FromCounter,
                          TwinnedLaunches twinned = TwinnedLaunches::Interpreted);

}  // namespace ktune::interp
