#pragma once
// Warp-collective instructions: shfl.sync (up, down, bfly, idx with clamp and segment mask,
// as the PTX ISA defines them) and vote.sync (ballot, all, any). Sources are read from every
// lane before any destination is written, as the hardware exchanges them.
#include <cstdint>

#include "model/interp/lane_values.h"

namespace ktune::interp {

// Returns false when the opcode is not a warp collective.
bool exec_collective(const ptx::Instruction& ins, const PreparedInstruction& p, RegisterFile regs,
                     uint32_t exec);

}  // namespace ktune::interp
