#pragma once
// The control-flow graph of a PTX function: basic blocks over the instruction list, their
// successors and predecessors, and immediate post-dominators. A divergent branch's warp
// reconverges at the immediate post-dominator of its block (the classic SIMT stack).
#include <cstdint>
#include <vector>

#include "model/ptx/ptx_instruction.h"

namespace ktune::ptx {

// The virtual exit node: post-dominates every block; a branch whose paths only meet by
// leaving the function reconverges "here", i.e. never.
inline constexpr uint32_t kExitBlock = UINT32_MAX;

struct BasicBlock {
  uint32_t begin = 0, end = 0;  // instruction indices [begin, end)
  std::vector<uint32_t> successors;    // may contain kExitBlock (ret, exit)
  std::vector<uint32_t> predecessors;  // kExitBlock never appears here
  uint32_t ipdom = kExitBlock;         // immediate post-dominator
};

struct Cfg {
  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> block_of;  // instruction index -> block id

  // The instruction where a branch at `pc` reconverges: the first of its block's immediate
  // post-dominator, or kExitBlock.
  uint32_t reconvergence_pc(uint32_t pc) const;
};

// Builds blocks (leaders: the first instruction, branch targets, instructions after a branch,
// ret or exit), edges, and immediate post-dominators (Cooper, Harvey & Kennedy's iterative
// algorithm on the reverse graph). Branch operands must already hold instruction indices.
Cfg build_cfg(const std::vector<Instruction>& code);

}  // namespace ktune::ptx
