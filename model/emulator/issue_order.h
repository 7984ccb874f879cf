#pragma once
// The order in which a warp issues its trace. The interpreter records PTX order, and the
// emulator issues a warp in order, waiting at the first op whose operands are not ready. ptxas
// does not keep PTX order: within a basic block it issues the global loads, and the address
// arithmetic they need, as early as their operands allow, so that an unrolled loop has all its
// independent loads in flight before the first use. In PTX order a gather that waits for its
// index would hold back the next iteration's index and value loads: one device-memory round
// trip per iteration where the GPU pays one per unrolled body.
//
// issue_like_ptxas reorders each run of a warp's ops that lies between branches, barriers,
// global stores, atomics and shared stores (which stay where they are): first the global loads
// and the ops they depend on, by load depth (loads whose addresses need no load of the run,
// then those that need one of them, ...) and then program order, then the rest in program order.
// Register dependencies are kept; deps are renumbered to the new positions.
#include "model/trace.h"

namespace ktune {

void issue_like_ptxas(WarpTrace& warp);
void issue_like_ptxas(BlockTrace& block);

}  // namespace ktune
