#include "model/interp/prepared_kernel.h"

#include <cstring>

#include "model/ptx/ptx_op_class.h"
#include "workload/input_error.h"

namespace ktune::interp {

using namespace ptx;

namespace {

uint64_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t f64_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
float bits_f32(uint64_t u) {
  const uint32_t v = static_cast<uint32_t>(u);
  float f;
  std::memcpy(&f, &v, 4);
  return f;
}
double bits_f64(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

// The type a source operand is read as: cvt reads its source type, everything else its own.
DataType source_type(const Instruction& ins) {
  return ins.op == Opcode::Cvt ? ins.type2 : ins.type;
}

// An immediate's bits as the instruction reads them: integers in a floating-point context
// become that value, float literals are converted between f32 and f64 where needed.
uint64_t immediate_bits(const Instruction& ins, const Operand& o) {
  const DataType t = source_type(ins);
  const bool shift_amount = ins.op == Opcode::Shl || ins.op == Opcode::Shr;
  if (shift_amount || !is_float(t)) {
    return static_cast<uint64_t>(o.value);  // integer literals are sign-extended to 64 bits
  }
  const bool f32 = t == DataType::F32;
  switch (o.imm_kind) {
    case ImmKind::Int:
      return f32 ? f32_bits(static_cast<float>(o.value)) : f64_bits(static_cast<double>(o.value));
    case ImmKind::F32Bits:
      return f32 ? static_cast<uint64_t>(o.value) : f64_bits(bits_f32(static_cast<uint64_t>(o.value)));
    case ImmKind::F64Bits:
      return f32 ? f32_bits(static_cast<float>(bits_f64(static_cast<uint64_t>(o.value))))
                 : static_cast<uint64_t>(o.value);
  }
  return 0;
}

uint32_t constant_slot(PreparedKernel& k, uint64_t bits) {
  for (size_t i = 0; i < k.constants.size(); ++i) {
    if (k.constants[i] == bits) return k.register_count + static_cast<uint32_t>(i);
  }
  k.constants.push_back(bits);
  return k.register_count + static_cast<uint32_t>(k.constants.size() - 1);
}

void check_supported(const PtxFunction& f, uint32_t pc) {
  const Instruction& ins = f.code[pc];
  auto refuse = [&](const std::string& why) {
    throw InputError("the PTX interpreter cannot execute " + f.describe(pc) + ": " + why);
  };
  if (ins.op == Opcode::Bar && ins.operand_count > 1) refuse("barriers with a thread count");
  if ((ins.op == Opcode::Ld || ins.op == Opcode::St) && ins.vector > 1 && ins.space == StateSpace::Param) {
    refuse("vector parameter access");
  }
  if (ins.op == Opcode::Cvta && ins.space != StateSpace::Global && ins.space != StateSpace::Shared) {
    refuse("cvta for this state space");
  }
  if (ins.op == Opcode::Atom && ins.atomic == AtomicOp::Cas && ins.operand_count != 4) refuse("cas needs 4 operands");
}

}  // namespace

PreparedKernel prepare_kernel(const PtxFunction& f) {
  PreparedKernel k;
  k.function = &f;
  k.register_count = static_cast<uint32_t>(f.registers.size());
  for (const Register& r : f.registers) k.register_bits.push_back(static_cast<uint8_t>(std::max(type_bits(r.type), 8)));
  // Constants first (their count decides where the special registers go).
  std::vector<std::array<uint64_t, kMaxOperands>> imm_bits(f.code.size());
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    check_supported(f, pc);
    const Instruction& ins = f.code[pc];
    PreparedInstruction p;
    for (int i = 0; i < ins.operand_count; ++i) {
      const Operand& o = ins.operands[i];
      switch (o.kind) {
        case OperandKind::Reg: p.slot[i] = o.reg; break;
        case OperandKind::Imm: p.slot[i] = constant_slot(k, immediate_bits(ins, o)); break;
        case OperandKind::Address: p.slot[i] = o.reg == kNoReg ? kNoSlot : o.reg; break;
        case OperandKind::Param: p.slot[i] = o.reg; break;
        default: p.slot[i] = kNoSlot; break;
      }
    }
    if (ins.op == Opcode::Bra) p.reconvergence_pc = f.cfg.reconvergence_pc(pc);
    p.region = f.cfg.block_of.empty() ? 0 : f.cfg.block_of[pc];
    p.op_class = op_class(ins);
    p.traced = !vanishes_in_sass(ins);
    k.code.push_back(p);
  }
  k.special_base = k.register_count + static_cast<uint32_t>(k.constants.size());
  k.slot_count = k.special_base + kSpecialCount;
  for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
    const Instruction& ins = f.code[pc];
    for (int i = 0; i < ins.operand_count; ++i) {
      if (ins.operands[i].kind == OperandKind::Special) {
        k.code[pc].slot[i] = k.special_base + static_cast<uint32_t>(ins.operands[i].special);
      }
    }
  }
  return k;
}

}  // namespace ktune::interp
