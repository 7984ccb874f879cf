#pragma once
// Lane-wise execution of arithmetic, logic, comparison, selection, moves and conversions,
// over the lanes of `exec`. Floating point follows IEEE round-to-nearest (fma fused); the
// rounding modifiers .rz/.rm/.rp of arithmetic and .ftz are not modelled (NVRTC emits .rn
// for our kernels); float->int conversions saturate and map NaN to 0, as PTX specifies.
#include <cstdint>

#include "model/interp/lane_values.h"

namespace ktune::interp {

// Returns false when the opcode is not an ALU operation (the caller dispatches it elsewhere).
bool exec_alu(const ptx::Instruction& ins, const PreparedInstruction& p, const PreparedKernel& k,
              RegisterFile regs, uint32_t exec);

}  // namespace ktune::interp
