// Names of the decoded enums, for messages and for decoding (ptx_opcode_decode.cpp).
#include <cstddef>

#include "model/ptx/ptx_instruction.h"

namespace ktune::ptx {

const char* opcode_name(Opcode op) {
  static const char* const names[] = {
      "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "abs", "neg", "rcp", "sqrt",
      "rsqrt", "ex2", "lg2", "sin", "cos", "and", "or", "xor", "not", "shl", "shr", "popc", "clz",
      "brev", "bfe", "bfi", "prmt", "dp2a", "dp4a", "setp", "selp", "mov", "cvt", "cvta", "ld", "st", "shfl",
      "vote", "activemask", "bar", "membar", "atom", "red", "mma", "ldmatrix", "cp.async", "bra", "ret", "exit"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(Opcode::Exit) + 1);
  return names[static_cast<size_t>(op)];
}

const char* type_name(DataType t) {
  static const char* const names[] = {"",    "pred", "b8",  "b16", "b32", "b64", "u8",  "u16", "u32",
                                      "u64", "s8",   "s16", "s32", "s64", "f16", "f32", "f64", "bf16", "tf32"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(DataType::TF32) + 1);
  return names[static_cast<size_t>(t)];
}

}  // namespace ktune::ptx
