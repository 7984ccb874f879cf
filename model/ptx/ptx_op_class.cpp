#include "model/ptx/ptx_op_class.h"

namespace ktune::ptx {

namespace {

OpClass arithmetic_class(const Instruction& ins) {
  if (ins.type == DataType::F64 || ins.type2 == DataType::F64) return OpClass::Fp64;
  if (ins.type == DataType::F32 || ins.type2 == DataType::F32) return OpClass::Fp32;
  return OpClass::IntAlu;
}

OpClass memory_class(const Instruction& ins, bool load) {
  if (ins.space == StateSpace::Shared) return load ? OpClass::SharedLoad : OpClass::SharedStore;
  if (ins.space == StateSpace::Param || ins.space == StateSpace::Const) return OpClass::IntAlu;
  return load ? OpClass::GlobalLoad : OpClass::GlobalStore;
}

}  // namespace

OpClass op_class(const Instruction& ins) {
  switch (ins.op) {
    case Opcode::Ld: return memory_class(ins, true);
    case Opcode::St: return memory_class(ins, false);
    case Opcode::Atom: case Opcode::Red: return OpClass::Atomic;
    case Opcode::Shfl: return OpClass::Shuffle;
    case Opcode::Bra: return OpClass::Branch;
    case Opcode::Ret: case Opcode::Exit: return OpClass::Exit;
    case Opcode::Bar: case Opcode::Membar: return OpClass::Barrier;
    // MUFU, and the multi-instruction sequences of division (integer or IEEE floating point).
    case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Ex2: case Opcode::Lg2:
    case Opcode::Sin: case Opcode::Cos: case Opcode::Div: case Opcode::Rem:
      return OpClass::Sfu;
    // Floating-point types run on the FP pipes, the rest (moves, logic, integer multiply,
    // predicates, conversions between integers) on the integer ALU.
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Fma:
    case Opcode::Min: case Opcode::Max: case Opcode::Abs: case Opcode::Neg: case Opcode::Setp:
    case Opcode::Cvt:
      return arithmetic_class(ins);
    default:
      return OpClass::IntAlu;
  }
}

bool vanishes_in_sass(const Instruction& ins) {
  switch (ins.op) {
    case Opcode::Ld: return ins.space == StateSpace::Param;
    case Opcode::Cvta: return true;
    case Opcode::Mov:
      for (int i = ins.dst_count; i < ins.operand_count; ++i) {
        if (ins.operands[i].kind == OperandKind::Special) return false;
      }
      return true;
    default: return false;
  }
}

}  // namespace ktune::ptx
