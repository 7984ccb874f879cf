#pragma once
// Instruction -> OpClass (model/trace.h), i.e. which hardware resource it asks for
// (model/resource.h), and whether it survives to SASS at all.
#include "model/ptx/ptx_instruction.h"
#include "model/trace.h"

namespace ktune::ptx {

// Generic loads and stores (no state space) are classed as global here; the interpreter
// reclassifies the ones whose addresses fall in the shared window.
OpClass op_class(const Instruction& ins);

// Instructions that leave no instruction of their own in SASS, so that traces may skip them:
// parameter loads (constant-bank operands), cvta to/from global (the identity on a 64-bit
// address space), and register moves of registers, immediates and symbol addresses (register
// allocation and immediate operands). Moves from special registers (S2R) stay.
bool vanishes_in_sass(const Instruction& ins);

}  // namespace ktune::ptx
