#pragma once
// The warp's matrix product mma.sync.aligned.row.col: m16n8k16 with f32 += bf16 or f16
// products, m16n8k8 and m16n8k16 of f64 (DMMA), as the PTX ISA lays their fragments over the
// lanes: every lane's sources are gathered into A (16 x k), B (k x 8) and C before D is written
// (D may be C's registers).
#include <cstdint>

#include "model/interp/lane_values.h"
#include "model/interp/prepared_kernel.h"

namespace ktune::interp {

// Returns false when the opcode is not mma. Throws std::runtime_error when part of the warp
// runs it (.aligned: the whole warp must).
bool exec_mma(const ptx::Instruction& ins, const PreparedInstruction& p, const PreparedKernel& k, RegisterFile regs,
              uint32_t exec);

}  // namespace ktune::interp
