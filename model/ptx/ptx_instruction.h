#pragma once
// One PTX instruction, pre-decoded: the opcode and its modifiers as enums, operands as register
// ids, immediates and resolved addresses, so that the interpreter's hot loop never looks at a
// string. Only what the kernels NVRTC emits for ktune's families need is modelled; the parser
// refuses anything else with the instruction and its line (ptx_parser.h).
#include <array>
#include <cstdint>

namespace ktune::ptx {

enum class Opcode : uint8_t {
  // integer and floating-point arithmetic
  Add, Sub, Mul, Mad, Fma, Div, Rem, Min, Max, Abs, Neg, Rcp, Sqrt, Rsqrt, Ex2, Lg2, Sin, Cos,
  // logic and bits
  And, Or, Xor, Not, Shl, Shr, Popc, Clz, Brev, Bfe, Bfi, Prmt,
  // integer dot products of bytes and halves (index arithmetic compiles to them)
  Dp2a, Dp4a,
  // comparison and selection
  Setp, Selp,
  // data movement and conversion
  Mov, Cvt, Cvta, Ld, St,
  // warp and block
  Shfl, Vote, Activemask, Bar, Membar,
  // atomics: Atom returns the old value, Red does not
  Atom, Red,
  // tensor cores: a warp's matrix product (mma.sync), its fragments from shared memory
  // (ldmatrix), and the asynchronous copy that fills it (cp.async; its commit and wait are
  // Membar, since the interpreter copies at once)
  Mma, Ldmatrix, CpAsync,
  // control
  Bra, Ret, Exit,
};
const char* opcode_name(Opcode op);

// Bit width and kind of a PTX fundamental type; None where the instruction has no type.
enum class DataType : uint8_t {
  None, Pred, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F16, F32, F64, BF16, TF32,
};
const char* type_name(DataType t);

// Inline: the interpreter asks these per lane.
inline int type_bits(DataType t) {  // 0 for None, 1 for Pred
  switch (t) {
    case DataType::None: return 0;
    case DataType::Pred: return 1;
    case DataType::B8: case DataType::U8: case DataType::S8: return 8;
    case DataType::B16: case DataType::U16: case DataType::S16: case DataType::F16: case DataType::BF16: return 16;
    case DataType::B32: case DataType::U32: case DataType::S32: case DataType::F32: case DataType::TF32: return 32;
    case DataType::B64: case DataType::U64: case DataType::S64: case DataType::F64: return 64;
  }
  return 0;
}
inline bool is_signed(DataType t) {  // S8..S64
  return t == DataType::S8 || t == DataType::S16 || t == DataType::S32 || t == DataType::S64;
}
inline bool is_float(DataType t) { return t == DataType::F16 || t == DataType::F32 || t == DataType::F64; }

enum class StateSpace : uint8_t { None, Generic, Global, Shared, Local, Param, Const };

enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };

// setp comparisons; the "u" forms are true when either operand is NaN.
enum class CmpOp : uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
};

// setp's optional combination with a third predicate (setp.lt.and.s32 p, a, b, c).
enum class BoolOp : uint8_t { None, And, Or, Xor };

enum class ShflMode : uint8_t { None, Up, Down, Bfly, Idx };

enum class VoteMode : uint8_t { None, Ballot, All, Any, Uni };

enum class AtomicOp : uint8_t { None, Add, Min, Max, Exch, Cas, And, Or, Xor, Inc, Dec };

// mul/mad: which part of the double-width product is kept; dp2a: which half of b's bytes.
enum class MulMode : uint8_t { None, Lo, Hi, Wide };

// Read-only registers every thread has; filled in by the interpreter per warp.
enum class Special : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  Laneid, Warpid, Nwarpid, LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe, Smid,
  Clock, Clock64,
};
inline constexpr int kSpecialCount = 23;

inline constexpr uint16_t kNoReg = UINT16_MAX;

enum class OperandKind : uint8_t {
  None,
  Reg,      // reg
  Imm,      // value (bits per imm_kind)
  Special,  // special
  Address,  // [reg + value], or [value] when reg == kNoReg (a shared symbol's offset)
  Param,    // [param + value]: `reg` holds the parameter index
  Label,    // value = target instruction index
  Vector,   // {regs...}: `reg` = first index into PtxFunction::vector_regs, count elements
};

// How an immediate's bits are to be read: integers are sign-extended to 64 bits; 0f / 0d
// literals keep their IEEE bits; decimal floats are stored as double bits.
enum class ImmKind : uint8_t { Int, F32Bits, F64Bits };

struct Operand {
  OperandKind kind = OperandKind::None;
  ImmKind imm_kind = ImmKind::Int;
  Special special = Special::TidX;
  bool negated = false;  // !%p in a predicate source
  uint8_t count = 0;     // Vector elements
  uint16_t reg = kNoReg;
  int64_t value = 0;
};

inline constexpr int kMaxOperands = 6;
inline constexpr int kMaxReads = 18;  // f64 mma reads 8 + 4 + 4 registers and a guard
inline constexpr int kMaxWrites = 5;

struct Instruction {
  Opcode op = Opcode::Mov;
  DataType type = DataType::None;   // the instruction's type (cvt: destination)
  DataType type2 = DataType::None;  // cvt: source; the second type where there is one
  StateSpace space = StateSpace::None;
  Rounding rounding = Rounding::None;
  CmpOp cmp = CmpOp::None;
  BoolOp bool_op = BoolOp::None;
  ShflMode shfl = ShflMode::None;
  VoteMode vote = VoteMode::None;
  AtomicOp atomic = AtomicOp::None;
  MulMode mul = MulMode::None;
  uint8_t vector = 1;      // ld/st .v2 / .v4
  bool non_coherent = false;  // ld.global.nc
  bool evict_first = false;   // ld.global.cs (cache streaming): evict-first in L1 and L2
  bool uniform = false;       // bra.uni
  bool ftz = false, sat = false, approx = false;
  bool to_space = false;   // cvta.to.<space> (generic -> space) rather than cvta.<space>
  bool trans = false;      // ldmatrix.trans
  uint8_t mma_k = 0;       // mma.m16n8k<mma_k>
  bool guard_negated = false;
  uint16_t guard = kNoReg;  // @%p / @!%p
  uint8_t operand_count = 0;
  // Destinations first (shfl's "d|p" is two operands, the predicate second), then sources.
  std::array<Operand, kMaxOperands> operands{};
  uint8_t dst_count = 0;
  // Static def-use: registers read (guard included) and written.
  uint8_t read_count = 0, write_count = 0;
  std::array<uint16_t, kMaxReads> reads{};
  std::array<uint16_t, kMaxWrites> writes{};
  uint32_t line = 0;  // in the PTX text, for messages
};

}  // namespace ktune::ptx
