#include "model/interp/exec_alu.h"

#include <cmath>
#include <limits>

namespace ktune::interp {

using namespace ptx;

namespace {

// GCC and Clang's 128-bit integers hold the double-width products of 64-bit mul.hi/.wide.
__extension__ using u128 = unsigned __int128;
__extension__ using s128 = __int128;

struct Ctx {
  const Instruction& ins;
  const PreparedInstruction& p;
  const PreparedKernel& k;
  RegisterFile regs;
  uint32_t exec;
  uint32_t src(int i) const { return p.slot[ins.dst_count + i]; }
  uint32_t dst() const { return p.slot[0]; }
};

// Integer ops on `bits`-wide values; signed ones see sign-extended operands.
template <typename F>
void int_binary(Ctx& c, F f) {
  const int bits = type_bits(c.ins.type);
  const uint64_t m = low_mask(bits);
  const uint32_t a = c.src(0), b = c.src(1), d = c.dst();
  for_lanes(c.exec, [&](uint32_t l) { c.regs.at(d, l) = f(c.regs.get(a, l), c.regs.get(b, l), bits) & m; });
}

template <typename F32, typename F64>
void float_binary(Ctx& c, F32 f32, F64 f64) {
  const uint32_t a = c.src(0), b = c.src(1), d = c.dst();
  if (c.ins.type == DataType::F32) {
    for_lanes(c.exec, [&](uint32_t l) {
      c.regs.at(d, l) = f32_to_bits(f32(as_f32(c.regs.get(a, l)), as_f32(c.regs.get(b, l))));
    });
  } else {
    for_lanes(c.exec, [&](uint32_t l) {
      c.regs.at(d, l) = f64_to_bits(f64(as_f64(c.regs.get(a, l)), as_f64(c.regs.get(b, l))));
    });
  }
}

template <typename F32, typename F64>
void float_unary(Ctx& c, F32 f32, F64 f64) {
  const uint32_t a = c.src(0), d = c.dst();
  if (c.ins.type == DataType::F32) {
    for_lanes(c.exec, [&](uint32_t l) { c.regs.at(d, l) = f32_to_bits(f32(as_f32(c.regs.get(a, l)))); });
  } else {
    for_lanes(c.exec, [&](uint32_t l) { c.regs.at(d, l) = f64_to_bits(f64(as_f64(c.regs.get(a, l)))); });
  }
}

bool is_fp(const Instruction& ins) { return is_float(ins.type); }

// The full product of two `bits`-wide integers (bits <= 64), as 128 bits.
u128 wide_product(uint64_t a, uint64_t b, int bits, bool sign) {
  if (sign) return static_cast<u128>(static_cast<s128>(sign_extend(a, bits)) * sign_extend(b, bits));
  return static_cast<u128>(a & low_mask(bits)) * (b & low_mask(bits));
}

uint64_t multiply(const Instruction& ins, uint64_t a, uint64_t b, int bits) {
  const u128 product = wide_product(a, b, bits, is_signed(ins.type));
  switch (ins.mul) {
    case MulMode::Hi: return static_cast<uint64_t>(product >> bits);
    case MulMode::Wide: return static_cast<uint64_t>(product);
    default: return static_cast<uint64_t>(product);
  }
}

void exec_fma(Ctx& c) {
  const uint32_t a = c.src(0), b = c.src(1), s = c.src(2), d = c.dst();
  if (c.ins.type == DataType::F32) {
    for_lanes(c.exec, [&](uint32_t l) {
      c.regs.at(d, l) = f32_to_bits(std::fma(as_f32(c.regs.get(a, l)), as_f32(c.regs.get(b, l)), as_f32(c.regs.get(s, l))));
    });
  } else {
    for_lanes(c.exec, [&](uint32_t l) {
      c.regs.at(d, l) = f64_to_bits(std::fma(as_f64(c.regs.get(a, l)), as_f64(c.regs.get(b, l)), as_f64(c.regs.get(s, l))));
    });
  }
}

void exec_mul_mad(Ctx& c, bool mad) {
  if (is_fp(c.ins)) {
    if (mad) {
      exec_fma(c);  // mad.f32 is fused on every architecture since sm_20
    } else {
      float_binary(c, [](float x, float y) { return x * y; }, [](double x, double y) { return x * y; });
    }
    return;
  }
  const int bits = type_bits(c.ins.type);
  const int out_bits = c.ins.mul == MulMode::Wide ? 2 * bits : bits;
  const uint64_t m = low_mask(out_bits);
  const uint32_t a = c.src(0), b = c.src(1), d = c.dst();
  const uint32_t s = mad ? c.src(2) : kNoSlot;
  for_lanes(c.exec, [&](uint32_t l) {
    uint64_t v = multiply(c.ins, c.regs.get(a, l), c.regs.get(b, l), bits);
    if (mad) v += c.regs.get(s, l);
    c.regs.at(d, l) = v & m;
  });
}

// dp4a: d = c + the four products of a's and b's bytes; dp2a: of a's two 16-bit halves and
// two of b's bytes (.lo the low two, .hi the high two). Each part is sign-extended where its
// operand's type is signed.
void exec_dot(Ctx& c, bool halves) {
  const bool a_signed = is_signed(c.ins.type), b_signed = is_signed(c.ins.type2);
  const int b_first = halves && c.ins.mul == MulMode::Hi ? 2 : 0;
  const uint32_t a = c.src(0), b = c.src(1), s = c.src(2), d = c.dst();
  const auto part = [](uint32_t word, int index, int bits, bool sign) -> int64_t {
    const uint64_t v = (word >> (index * bits)) & low_mask(bits);
    return sign ? sign_extend(v, bits) : static_cast<int64_t>(v);
  };
  for_lanes(c.exec, [&](uint32_t l) {
    const uint32_t x = static_cast<uint32_t>(c.regs.get(a, l)), y = static_cast<uint32_t>(c.regs.get(b, l));
    int64_t sum = static_cast<int32_t>(c.regs.get(s, l));
    for (int i = 0; i < (halves ? 2 : 4); ++i)
      sum += part(x, i, halves ? 16 : 8, a_signed) * part(y, b_first + i, 8, b_signed);
    c.regs.at(d, l) = static_cast<uint32_t>(sum);
  });
}

void exec_div_rem(Ctx& c, bool rem) {
  if (is_fp(c.ins)) {
    float_binary(c, [](float x, float y) { return x / y; }, [](double x, double y) { return x / y; });
    return;
  }
  const bool sign = is_signed(c.ins.type);
  int_binary(c, [sign, rem](uint64_t a, uint64_t b, int bits) -> uint64_t {
    if (sign) {
      const int64_t x = sign_extend(a, bits), y = sign_extend(b, bits);
      if (y == 0) return rem ? static_cast<uint64_t>(x) : ~uint64_t{0};  // undefined in PTX
      if (y == -1) return rem ? 0 : static_cast<uint64_t>(-static_cast<u128>(x));
      return static_cast<uint64_t>(rem ? x % y : x / y);
    }
    const uint64_t x = a & low_mask(bits), y = b & low_mask(bits);
    if (y == 0) return rem ? x : ~uint64_t{0};
    return rem ? x % y : x / y;
  });
}

void exec_min_max(Ctx& c, bool is_max) {
  if (is_fp(c.ins)) {
    // PTX min/max return the other operand when one is NaN, as fmin/fmax do.
    if (is_max) {
      float_binary(c, [](float x, float y) { return std::fmax(x, y); }, [](double x, double y) { return std::fmax(x, y); });
    } else {
      float_binary(c, [](float x, float y) { return std::fmin(x, y); }, [](double x, double y) { return std::fmin(x, y); });
    }
    return;
  }
  const bool sign = is_signed(c.ins.type);
  int_binary(c, [sign, is_max](uint64_t a, uint64_t b, int bits) -> uint64_t {
    bool a_wins;
    if (sign) {
      a_wins = is_max ? sign_extend(a, bits) > sign_extend(b, bits) : sign_extend(a, bits) < sign_extend(b, bits);
    } else {
      a_wins = is_max ? (a & low_mask(bits)) > (b & low_mask(bits)) : (a & low_mask(bits)) < (b & low_mask(bits));
    }
    return a_wins ? a : b;
  });
}

void exec_unary_int(Ctx& c) {
  const int bits = type_bits(c.ins.type);
  const uint64_t m = low_mask(bits);
  const uint32_t a = c.src(0), d = c.dst();
  const Opcode op = c.ins.op;
  const bool pred = c.ins.type == DataType::Pred;
  for_lanes(c.exec, [&](uint32_t l) {
    const uint64_t v = c.regs.get(a, l) & m;
    uint64_t r = 0;
    switch (op) {
      case Opcode::Not: r = pred ? (v ^ 1) : ~v; break;
      case Opcode::Neg: r = static_cast<uint64_t>(-sign_extend(v, bits)); break;
      case Opcode::Abs: {
        const int64_t s = sign_extend(v, bits);
        r = static_cast<uint64_t>(s < 0 ? -s : s);
        break;
      }
      case Opcode::Popc: r = static_cast<uint64_t>(__builtin_popcountll(v)); break;
      case Opcode::Clz: r = v == 0 ? bits : static_cast<uint64_t>(__builtin_clzll(v) - (64 - bits)); break;
      case Opcode::Brev: {
        uint64_t x = v;
        r = 0;
        for (int i = 0; i < bits; ++i, x >>= 1) r = (r << 1) | (x & 1);
        break;
      }
      default: break;
    }
    // popc and clz write a u32 whatever their source width.
    c.regs.at(d, l) = (op == Opcode::Popc || op == Opcode::Clz) ? r : (r & m);
  });
}

[[gnu::always_inline]] inline bool compare(CmpOp cmp, DataType t, uint64_t a, uint64_t b) {
  if (is_float(t)) {
    const double x = t == DataType::F32 ? as_f32(a) : as_f64(a);
    const double y = t == DataType::F32 ? as_f32(b) : as_f64(b);
    const bool unordered = std::isnan(x) || std::isnan(y);
    switch (cmp) {
      case CmpOp::Eq: return !unordered && x == y;
      case CmpOp::Ne: return !unordered && x != y;
      case CmpOp::Lt: return !unordered && x < y;
      case CmpOp::Le: return !unordered && x <= y;
      case CmpOp::Gt: return !unordered && x > y;
      case CmpOp::Ge: return !unordered && x >= y;
      case CmpOp::Equ: return unordered || x == y;
      case CmpOp::Neu: return unordered || x != y;
      case CmpOp::Ltu: return unordered || x < y;
      case CmpOp::Leu: return unordered || x <= y;
      case CmpOp::Gtu: return unordered || x > y;
      case CmpOp::Geu: return unordered || x >= y;
      case CmpOp::Num: return !unordered;
      case CmpOp::Nan: return unordered;
      default: return false;
    }
  }
  const int bits = type_bits(t);
  const int64_t sx = sign_extend(a, bits), sy = sign_extend(b, bits);
  const uint64_t ux = a & low_mask(bits), uy = b & low_mask(bits);
  const bool sign = is_signed(t);
  switch (cmp) {
    case CmpOp::Eq: return ux == uy;
    case CmpOp::Ne: return ux != uy;
    case CmpOp::Lt: return sign ? sx < sy : ux < uy;
    case CmpOp::Le: return sign ? sx <= sy : ux <= uy;
    case CmpOp::Gt: return sign ? sx > sy : ux > uy;
    case CmpOp::Ge: return sign ? sx >= sy : ux >= uy;
    case CmpOp::Lo: return ux < uy;
    case CmpOp::Ls: return ux <= uy;
    case CmpOp::Hi: return ux > uy;
    case CmpOp::Hs: return ux >= uy;
    default: return false;
  }
}

void exec_setp(Ctx& c) {
  const uint32_t a = c.src(0), b = c.src(1), d = c.dst();
  const bool second = c.ins.dst_count == 2;
  const uint32_t q = second ? c.p.slot[1] : kNoSlot;
  const bool combine = c.ins.bool_op != BoolOp::None;
  const uint32_t cs = combine ? c.src(2) : kNoSlot;
  const bool c_negated = combine && c.ins.operands[c.ins.dst_count + 2].negated;
  for_lanes(c.exec, [&](uint32_t l) {
    bool t = compare(c.ins.cmp, c.ins.type, c.regs.get(a, l), c.regs.get(b, l));
    bool f = !t;
    if (combine) {
      const bool other = (c.regs.get(cs, l) != 0) != c_negated;
      switch (c.ins.bool_op) {
        case BoolOp::And: t = t && other; f = f && other; break;
        case BoolOp::Or: t = t || other; f = f || other; break;
        case BoolOp::Xor: t = t != other; f = f != other; break;
        default: break;
      }
    }
    c.regs.at(d, l) = t;
    if (second) c.regs.at(q, l) = f;
  });
}

void exec_selp(Ctx& c) {
  const uint32_t a = c.src(0), b = c.src(1), s = c.src(2), d = c.dst();
  const bool negated = c.ins.operands[c.ins.dst_count + 2].negated;
  for_lanes(c.exec, [&](uint32_t l) {
    c.regs.at(d, l) = ((c.regs.get(s, l) != 0) != negated) ? c.regs.get(a, l) : c.regs.get(b, l);
  });
}

// mov, including the vector forms that split a 64-bit register into halves and join them.
void exec_mov(Ctx& c) {
  const Operand& dst = c.ins.operands[0];
  const Operand& src = c.ins.operands[1];
  const auto& vregs = c.k.function->vector_regs;
  const int bits = std::max(type_bits(c.ins.type), 1);
  if (dst.kind == OperandKind::Vector) {
    const int part = bits / dst.count;
    const uint32_t a = c.p.slot[1];
    for_lanes(c.exec, [&](uint32_t l) {
      const uint64_t v = c.regs.get(a, l);
      for (int e = 0; e < dst.count; ++e) {
        const uint16_t r = vregs[dst.reg + e];
        if (r != kNoReg) c.regs.at(r, l) = (v >> (e * part)) & low_mask(part);
      }
    });
    return;
  }
  if (src.kind == OperandKind::Vector) {
    const int part = bits / src.count;
    const uint32_t d = c.dst();
    for_lanes(c.exec, [&](uint32_t l) {
      uint64_t v = 0;
      for (int e = 0; e < src.count; ++e) {
        v |= (c.regs.get(vregs[src.reg + e], l) & low_mask(part)) << (e * part);
      }
      c.regs.at(d, l) = v;
    });
    return;
  }
  const uint64_t m = c.ins.type == DataType::Pred ? 1 : low_mask(bits);
  const uint32_t a = c.p.slot[1], d = c.dst();
  for_lanes(c.exec, [&](uint32_t l) { c.regs.at(d, l) = c.regs.get(a, l) & m; });
}

template <typename Int>
uint64_t saturate_to(double v) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<Int>::min())) return static_cast<uint64_t>(std::numeric_limits<Int>::min());
  if (v >= static_cast<double>(std::numeric_limits<Int>::max())) return static_cast<uint64_t>(std::numeric_limits<Int>::max());
  return static_cast<uint64_t>(static_cast<Int>(v));
}

double round_integral(double v, Rounding r) {
  switch (r) {
    case Rounding::Rni: case Rounding::Rn: return std::nearbyint(v);  // ties to even by default
    case Rounding::Rmi: case Rounding::Rm: return std::floor(v);
    case Rounding::Rpi: case Rounding::Rp: return std::ceil(v);
    default: return std::trunc(v);
  }
}

uint64_t float_to_int(double v, DataType to) {
  switch (to) {
    case DataType::S8: return saturate_to<int8_t>(v);
    case DataType::S16: return saturate_to<int16_t>(v);
    case DataType::S32: return saturate_to<int32_t>(v);
    case DataType::S64: return saturate_to<int64_t>(v);
    case DataType::U8: return saturate_to<uint8_t>(v);
    case DataType::U16: return saturate_to<uint16_t>(v);
    case DataType::U32: return saturate_to<uint32_t>(v);
    default: return saturate_to<uint64_t>(v);
  }
}

void exec_cvt(Ctx& c) {
  const DataType to = c.ins.type, from = c.ins.type2;
  const int to_bits = type_bits(to), from_bits = type_bits(from);
  const uint32_t a = c.src(0), d = c.dst();
  const uint64_t m = low_mask(to_bits);
  const Rounding r = c.ins.rounding;
  for_lanes(c.exec, [&](uint32_t l) {
    const uint64_t v = c.regs.get(a, l);
    uint64_t out;
    if (is_float(from)) {
      double x = from == DataType::F32 ? static_cast<double>(as_f32(v)) : as_f64(v);
      if (is_float(to)) {
        if (r == Rounding::Rni || r == Rounding::Rzi || r == Rounding::Rmi || r == Rounding::Rpi) x = round_integral(x, r);
        out = to == DataType::F32 ? f32_to_bits(static_cast<float>(x)) : f64_to_bits(x);
      } else {
        out = float_to_int(round_integral(x, r), to);
      }
    } else {
      const int64_t s = sign_extend(v, from_bits);
      const uint64_t u = v & low_mask(from_bits);
      if (is_float(to)) {
        if (to == DataType::F32) {
          out = f32_to_bits(is_signed(from) ? static_cast<float>(s) : static_cast<float>(u));
        } else {
          out = f64_to_bits(is_signed(from) ? static_cast<double>(s) : static_cast<double>(u));
        }
      } else {
        out = is_signed(from) ? static_cast<uint64_t>(s) : u;  // extend, then keep to_bits
      }
    }
    c.regs.at(d, l) = out & m;
  });
}

void exec_bfe_bfi_prmt(Ctx& c) {
  const int bits = type_bits(c.ins.type);
  const uint64_t m = low_mask(bits);
  const uint32_t d = c.dst();
  const Opcode op = c.ins.op;
  const bool sign = is_signed(c.ins.type);
  const uint32_t a = c.src(0), b = c.src(1), s = c.src(2);
  const uint32_t t = op == Opcode::Bfi ? c.src(3) : kNoSlot;
  for_lanes(c.exec, [&](uint32_t l) {
    const uint64_t x = c.regs.get(a, l) & m;
    uint64_t out = 0;
    if (op == Opcode::Bfe) {
      const uint32_t pos = static_cast<uint32_t>(c.regs.get(b, l) & 0xff);
      const uint32_t len = static_cast<uint32_t>(c.regs.get(s, l) & 0xff);
      if (len == 0) {
        out = 0;
      } else {
        const uint64_t field = pos >= 64 ? 0 : (x >> pos) & low_mask(static_cast<int>(std::min<uint32_t>(len, 64)));
        const uint32_t top = std::min<uint32_t>(pos + len, static_cast<uint32_t>(bits)) - 1;
        const bool negative = sign && ((x >> std::min<uint32_t>(top, static_cast<uint32_t>(bits) - 1)) & 1);
        out = negative ? (field | ~low_mask(static_cast<int>(std::min<uint32_t>(len, 64)))) : field;
      }
    } else if (op == Opcode::Bfi) {
      const uint64_t y = c.regs.get(b, l) & m;
      const uint32_t pos = static_cast<uint32_t>(c.regs.get(s, l) & 0xff);
      const uint32_t len = static_cast<uint32_t>(c.regs.get(t, l) & 0xff);
      const uint64_t field = pos >= 64 ? 0 : (low_mask(static_cast<int>(std::min<uint32_t>(len, 64))) << pos);
      out = (y & ~field) | ((x << pos) & field);
    } else {  // prmt.b32, default mode: each selector nibble picks a byte of {b, a}
      const uint64_t bytes = (c.regs.get(b, l) & 0xffffffffu) << 32 | (x & 0xffffffffu);
      const uint32_t selector = static_cast<uint32_t>(c.regs.get(s, l));
      for (int i = 0; i < 4; ++i) {
        const uint32_t sel = (selector >> (4 * i)) & 0xf;
        uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        out |= byte << (8 * i);
      }
    }
    c.regs.at(d, l) = out & m;
  });
}

}  // namespace

bool exec_alu(const Instruction& ins, const PreparedInstruction& p, const PreparedKernel& k,
              RegisterFile regs, uint32_t exec) {
  Ctx c{ins, p, k, regs, exec};
  switch (ins.op) {
    case Opcode::Add:
      if (is_fp(ins)) {
        float_binary(c, [](float x, float y) { return x + y; }, [](double x, double y) { return x + y; });
      } else {
        int_binary(c, [](uint64_t a, uint64_t b, int) { return a + b; });
      }
      return true;
    case Opcode::Sub:
      if (is_fp(ins)) {
        float_binary(c, [](float x, float y) { return x - y; }, [](double x, double y) { return x - y; });
      } else {
        int_binary(c, [](uint64_t a, uint64_t b, int) { return a - b; });
      }
      return true;
    case Opcode::Mul: exec_mul_mad(c, false); return true;
    case Opcode::Mad: exec_mul_mad(c, true); return true;
    case Opcode::Fma: exec_fma(c); return true;
    case Opcode::Dp2a: exec_dot(c, true); return true;
    case Opcode::Dp4a: exec_dot(c, false); return true;
    case Opcode::Div: exec_div_rem(c, false); return true;
    case Opcode::Rem: exec_div_rem(c, true); return true;
    case Opcode::Min: exec_min_max(c, false); return true;
    case Opcode::Max: exec_min_max(c, true); return true;
    case Opcode::And: int_binary(c, [](uint64_t a, uint64_t b, int) { return a & b; }); return true;
    case Opcode::Or: int_binary(c, [](uint64_t a, uint64_t b, int) { return a | b; }); return true;
    case Opcode::Xor: int_binary(c, [](uint64_t a, uint64_t b, int) { return a ^ b; }); return true;
    case Opcode::Shl:
      int_binary(c, [](uint64_t a, uint64_t b, int bits) {
        const uint32_t n = static_cast<uint32_t>(b);
        return n >= static_cast<uint32_t>(bits) ? 0 : a << n;
      });
      return true;
    case Opcode::Shr: {
      const bool sign = is_signed(ins.type);
      int_binary(c, [sign](uint64_t a, uint64_t b, int bits) -> uint64_t {
        const uint32_t n = std::min(static_cast<uint32_t>(b), static_cast<uint32_t>(bits) - 1 + !sign);
        if (sign) return static_cast<uint64_t>(sign_extend(a, bits) >> std::min<uint32_t>(n, 63));
        return n >= static_cast<uint32_t>(bits) ? 0 : (a & low_mask(bits)) >> n;
      });
      return true;
    }
    case Opcode::Not: case Opcode::Popc: case Opcode::Clz: case Opcode::Brev:
      exec_unary_int(c);
      return true;
    case Opcode::Neg:
      if (is_fp(ins)) {
        float_unary(c, [](float x) { return -x; }, [](double x) { return -x; });
      } else {
        exec_unary_int(c);
      }
      return true;
    case Opcode::Abs:
      if (is_fp(ins)) {
        float_unary(c, [](float x) { return std::fabs(x); }, [](double x) { return std::fabs(x); });
      } else {
        exec_unary_int(c);
      }
      return true;
    case Opcode::Rcp: float_unary(c, [](float x) { return 1.0f / x; }, [](double x) { return 1.0 / x; }); return true;
    case Opcode::Sqrt: float_unary(c, [](float x) { return std::sqrt(x); }, [](double x) { return std::sqrt(x); }); return true;
    case Opcode::Rsqrt: float_unary(c, [](float x) { return 1.0f / std::sqrt(x); }, [](double x) { return 1.0 / std::sqrt(x); }); return true;
    case Opcode::Ex2: float_unary(c, [](float x) { return std::exp2(x); }, [](double x) { return std::exp2(x); }); return true;
    case Opcode::Lg2: float_unary(c, [](float x) { return std::log2(x); }, [](double x) { return std::log2(x); }); return true;
    case Opcode::Sin: float_unary(c, [](float x) { return std::sin(x); }, [](double x) { return std::sin(x); }); return true;
    case Opcode::Cos: float_unary(c, [](float x) { return std::cos(x); }, [](double x) { return std::cos(x); }); return true;
    case Opcode::Bfe: case Opcode::Bfi: case Opcode::Prmt: exec_bfe_bfi_prmt(c); return true;
    case Opcode::Setp: exec_setp(c); return true;
    case Opcode::Selp: exec_selp(c); return true;
    case Opcode::Mov: exec_mov(c); return true;
    case Opcode::Cvt: exec_cvt(c); return true;
    default: return false;
  }
}

}  // namespace ktune::interp
