#pragma once
// The warp's matrix product mma.sync.aligned.m16n8k16.row.col, f32 += bf16 or f16 products, as
// the PTX ISA lays its fragments over the lanes: every lane's sources are gathered into A
// (16 x 16), B (16 x 8) and C before D is written (D may be C's registers).
#include <cstdint>

#include "model/interp/lane_values.h"
#include "model/interp/prepared_kernel.h"

namespace ktune::interp {

// Returns false when the opcode is not mma. Throws std::runtime_error when part of the warp
// runs it (.aligned: the whole warp must).
bool exec_mma(const ptx::Instruction& ins, const PreparedInstruction& p, const PreparedKernel& k, RegisterFile regs,
              uint32_t exec);

}  // namespace ktune::interp
