#pragma once
// A PtxFunction made ready to interpret: every operand resolved to a slot of the per-warp
// register file (registers, then constants, then special registers), immediates converted
// to the bits their instruction reads, reconvergence points and op classes looked up once.
// Built once per kernel; the hot loop only indexes arrays.
#include <array>
#include <cstdint>
#include <vector>

#include "model/ptx/ptx_module.h"
#include "model/trace.h"

namespace ktune::interp {

inline constexpr uint32_t kLanes = 32;

struct PreparedInstruction {
  // Slot per operand: register file slot for Reg/Imm/Special, base register slot for Address
  // (kNoSlot when the address is absolute), parameter index for Param.
  std::array<uint32_t, ptx::kMaxOperands> slot{};
  uint32_t reconvergence_pc = ptx::kExitBlock;  // for branches
  uint32_t region = 0;                          // basic block id
  OpClass op_class = OpClass::IntAlu;
  bool traced = true;  // false for instructions that vanish in SASS
};

inline constexpr uint32_t kNoSlot = UINT32_MAX;

struct PreparedKernel {
  const ptx::PtxFunction* function = nullptr;
  std::vector<PreparedInstruction> code;
  uint32_t register_count = 0;  // slots [0, register_count) are the PTX registers
  uint32_t special_base = 0;    // slots [special_base, special_base + kSpecialCount)
  uint32_t slot_count = 0;
  std::vector<uint64_t> constants;  // slot register_count + i holds constants[i]
  std::vector<uint8_t> register_bits;  // declared width of each register
};

// Throws InputError naming the instruction for PTX the interpreter cannot execute.
PreparedKernel prepare_kernel(const ptx::PtxFunction& f);

}  // namespace ktune::interp
