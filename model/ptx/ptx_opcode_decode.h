#pragma once
// "ld.global.nc.v2.u32" -> an Instruction with its opcode and modifiers set (operands empty).
#include <cstdint>
#include <string_view>

#include "model/ptx/ptx_instruction.h"

namespace ktune::ptx {

// Throws InputError naming the instruction and line for an unknown opcode or modifier, and
// for known ones the interpreter does not model (e.g. bar.arrive, shared::cluster).
Instruction decode_opcode(std::string_view word, uint32_t line);

}  // namespace ktune::ptx
