#include "model/interp/exec_mma.h"

#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ktune::interp {

using namespace ptx;

namespace {

float half_to_float(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  const float sign = h & 0x8000 ? -1.0f : 1.0f;
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}

float input_value(uint32_t word, int half, DataType t) {
  const uint16_t bits = static_cast<uint16_t>(word >> (16 * half));
  if (t == DataType::F16) return half_to_float(bits);
  const uint32_t f = uint32_t{bits} << 16;  // bf16: the upper half of an f32
  float v;
  std::memcpy(&v, &f, 4);
  return v;
}

// The registers of a vector operand, in order.
std::array<uint32_t, 8> vector_slots(const Operand& o, const PreparedKernel& k) {
  std::array<uint32_t, 8> slots{};
  for (int e = 0; e < o.count && e < 8; ++e) slots[e] = k.function->vector_regs[o.reg + e];
  return slots;
}

// The m16n8k8 and m16n8k16 whose registers hold one element each: f64's, and tf32's (m16n8k8)
// on f32 words. A's register r holds row g + 8 (r % 2) at k = t + 4 (r / 2), B's register v
// column g at k = t + 4v, C and D as for f32 (elements 2t and 2t + 1 of rows g, g + 8). `input`
// reads an A or B register, `accumulator` a C register; `step` adds one product to a sum, and
// `bits` writes a sum back.
template <typename T, typename Input, typename Accumulator, typename Step, typename Bits>
void exec_scalar_fragments(const Instruction& ins, const PreparedKernel& k, RegisterFile regs, Input input,
                           Accumulator accumulator, Step step, Bits bits) {
  const std::array<uint32_t, 8> d = vector_slots(ins.operands[0], k), a = vector_slots(ins.operands[1], k),
                                b = vector_slots(ins.operands[2], k), c = vector_slots(ins.operands[3], k);
  const int depth = ins.mma_k;
  T A[16][16], B[16][8], C[16][8];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const int g = static_cast<int>(lane / 4), t = static_cast<int>(lane % 4);
    for (int r = 0; r < depth / 2; ++r) A[g + 8 * (r % 2)][t + 4 * (r / 2)] = input(regs.get(a[r], lane));
    for (int v = 0; v < depth / 4; ++v) B[t + 4 * v][g] = input(regs.get(b[v], lane));
    for (int r = 0; r < 4; ++r) C[g + (r / 2) * 8][2 * t + r % 2] = accumulator(regs.get(c[r], lane));
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const int g = static_cast<int>(lane / 4), t = static_cast<int>(lane % 4);
    for (int r = 0; r < 4; ++r) {
      const int row = g + (r / 2) * 8, col = 2 * t + r % 2;
      T sum = C[row][col];
      for (int kk = 0; kk < depth; ++kk) sum = step(A[row][kk], B[kk][col], sum);
      regs.at(d[r], lane) = bits(sum);
    }
  }
}

// tf32 keeps an f32's sign, exponent and top 10 mantissa bits (the tensor cores ignore the rest).
float tf32_of(uint64_t word) {
  const uint32_t kept = static_cast<uint32_t>(word) & 0xffffe000u;
  float v;
  std::memcpy(&v, &kept, 4);
  return v;
}

}  // namespace

bool exec_mma(const Instruction& ins, const PreparedInstruction&, const PreparedKernel& k, RegisterFile regs,
              uint32_t exec) {
  if (ins.op != Opcode::Mma) return false;
  if (exec != 0xffffffffu) throw std::runtime_error("PTX interpreter: mma.sync.aligned run by part of a warp");
  if (ins.type == DataType::F64) {
    exec_scalar_fragments<double>(
        ins, k, regs, [](uint64_t w) { return as_f64(w); }, [](uint64_t w) { return as_f64(w); },
        [](double x, double y, double sum) { return std::fma(x, y, sum); }, [](double v) { return f64_to_bits(v); });
    return true;
  }
  if (ins.type2 == DataType::TF32) {
    if (ins.mma_k != 8) throw std::runtime_error("PTX interpreter: tf32 mma is m16n8k8 here");
    // Two 11-bit mantissas multiply exactly in an f32; the sum rounds as the tensor cores' f32 sum.
    exec_scalar_fragments<float>(
        ins, k, regs, tf32_of, [](uint64_t w) { return as_f32(w); },
        [](float x, float y, float sum) { return sum + x * y; }, [](float v) { return f32_to_bits(v); });
    return true;
  }
  const std::array<uint32_t, 8> d = vector_slots(ins.operands[0], k), a = vector_slots(ins.operands[1], k),
                                b = vector_slots(ins.operands[2], k), c = vector_slots(ins.operands[3], k);
  float A[16][16], B[16][8], C[16][8];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const int g = static_cast<int>(lane / 4), t = static_cast<int>(lane % 4);
    for (int r = 0; r < 4; ++r) {  // a0: (g, 2t..), a1: (g + 8, 2t..), a2: (g, 2t + 8..), a3: (g + 8, 2t + 8..)
      const uint32_t word = static_cast<uint32_t>(regs.get(a[r], lane));
      const int row = g + (r % 2) * 8, col = 2 * t + (r / 2) * 8;
      A[row][col] = input_value(word, 0, ins.type2);
      A[row][col + 1] = input_value(word, 1, ins.type2);
    }
    for (int r = 0; r < 2; ++r) {  // b0: (2t.., g), b1: (2t + 8.., g)
      const uint32_t word = static_cast<uint32_t>(regs.get(b[r], lane));
      B[2 * t + r * 8][g] = input_value(word, 0, ins.type2);
      B[2 * t + r * 8 + 1][g] = input_value(word, 1, ins.type2);
    }
    for (int r = 0; r < 4; ++r)  // c0, c1: (g, 2t), (g, 2t + 1); c2, c3: row g + 8
      C[g + (r / 2) * 8][2 * t + r % 2] = as_f32(regs.get(c[r], lane));
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const int g = static_cast<int>(lane / 4), t = static_cast<int>(lane % 4);
    for (int r = 0; r < 4; ++r) {
      const int row = g + (r / 2) * 8, col = 2 * t + r % 2;
      float sum = C[row][col];
      for (int kk = 0; kk < 16; ++kk) sum += A[row][kk] * B[kk][col];
      regs.at(d[r], lane) = f32_to_bits(sum);
    }
  }
  return true;
}

}  // namespace ktune::interp
