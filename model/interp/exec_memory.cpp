#include "model/interp/exec_memory.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace ktune::interp {

using namespace ptx;

namespace {

constexpr int kMaxAccesses = kLanes * 4;  // lanes x vector elements

[[noreturn]] void bad_access(const PreparedKernel& k, uint32_t pc, const MemoryContext& m, uint32_t lane,
                             uint64_t address, uint32_t size, const char* where) {
  std::ostringstream s;
  s << "PTX interpreter: " << k.function->describe(pc) << " in block " << m.block << ", lane " << lane
    << ": " << size << "-byte access at 0x" << std::hex << address << std::dec << " is outside " << where;
  throw std::runtime_error(s.str());
}

// Where the access goes, decided per warp: a generic access whose active lanes point into
// the shared window is a shared access (mixed generic warps are treated as global).
enum class Target { Global, Shared, Param };

uint64_t lane_address(const Operand& o, uint32_t slot, RegisterFile regs, uint32_t lane) {
  const uint64_t base = slot == kNoSlot ? 0 : regs.get(slot, lane);
  return base + static_cast<uint64_t>(o.value);
}

Target target_of(const Instruction& ins, const Operand& address, uint32_t slot, RegisterFile regs, uint32_t exec) {
  if (address.kind == OperandKind::Param) return Target::Param;
  if (ins.space == StateSpace::Shared) return Target::Shared;
  if (ins.space == StateSpace::Global) return Target::Global;
  if (ins.space == StateSpace::Param) return Target::Param;
  bool shared = exec != 0;
  for_lanes(exec, [&](uint32_t l) {
    const uint64_t a = lane_address(address, slot, regs, l);
    shared = shared && a >= kSharedWindow && a < kSharedWindow + kSharedWindowSize;
  });
  return shared ? Target::Shared : Target::Global;
}

// Bytes of one element for the lane, or throws.
[[gnu::always_inline]] inline std::byte* locate(Target t, uint64_t address, uint32_t size, bool generic, const PreparedKernel& k,
                  uint32_t pc, MemoryContext& m, uint32_t lane, bool for_write) {
  if (t == Target::Shared) {
    const uint64_t offset = generic ? address - kSharedWindow : address;
    if (offset + size > m.shared_size || offset > m.shared_size) {
      bad_access(k, pc, m, lane, address, size, "the block's shared memory");
    }
    return m.shared + offset;
  }
  std::byte* p = for_write ? m.global->write(address, size)
                           : const_cast<std::byte*>(m.global->read(address, size));
  if (!p) bad_access(k, pc, m, lane, address, size, "every buffer of the launch");
  return p;
}

uint16_t count_sectors(const std::array<uint64_t, kMaxAccesses>& addresses, int n, std::vector<uint64_t>* out) {
  std::array<uint64_t, kMaxAccesses> sectors;
  for (int i = 0; i < n; ++i) sectors[i] = addresses[i] >> 5;
  // Coalesced accesses arrive sorted; sort only when they are not.
  if (!std::is_sorted(sectors.begin(), sectors.begin() + n)) std::sort(sectors.begin(), sectors.begin() + n);
  const int distinct = static_cast<int>(std::unique(sectors.begin(), sectors.begin() + n) - sectors.begin());
  if (out) out->insert(out->end(), sectors.begin(), sectors.begin() + distinct);
  return static_cast<uint16_t>(distinct);
}

// Wavefronts of a shared access: each bank (4-byte word index mod 32) serves one distinct
// word per wavefront.
uint16_t count_wavefronts(const std::array<uint64_t, kMaxAccesses>& addresses, int n, uint32_t size) {
  std::array<uint64_t, kMaxAccesses * 4> words;
  int count = 0;
  const uint32_t words_per_element = std::max<uint32_t>(size / 4, 1);
  for (int i = 0; i < n; ++i) {
    for (uint32_t w = 0; w < words_per_element; ++w) words[count++] = (addresses[i] >> 2) + w;
  }
  std::sort(words.begin(), words.begin() + count);
  const int distinct = static_cast<int>(std::unique(words.begin(), words.begin() + count) - words.begin());
  std::array<uint16_t, 32> per_bank{};
  uint16_t most = 0;
  for (int i = 0; i < distinct; ++i) most = std::max<uint16_t>(most, ++per_bank[words[i] & 31]);
  return most;
}

// Fixed-size copies, so that the compiler emits one move instead of a memcpy call per lane.
// Little-endian host, as the device.
inline uint64_t load_bits(const std::byte* p, uint32_t size) {
  switch (size) {
    case 1: { uint8_t v; std::memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}
inline void store_bits(std::byte* p, uint64_t v, uint32_t size) {
  switch (size) {
    case 1: { const uint8_t x = static_cast<uint8_t>(v); std::memcpy(p, &x, 1); return; }
    case 2: { const uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); return; }
    case 4: { const uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); return; }
    default: std::memcpy(p, &v, 8); return;
  }
}

// A loaded value as the destination register holds it: signed types sign-extend to the
// register's width, the rest zero-extend.
uint64_t extend_for_register(uint64_t raw, DataType t, uint8_t register_bits) {
  const int bits = type_bits(t);
  const uint64_t v = is_signed(t) ? static_cast<uint64_t>(sign_extend(raw, bits)) : raw;
  return v & low_mask(register_bits);
}

// The registers of a data operand: one for a scalar, the elements of a vector.
int data_registers(const Operand& o, uint32_t slot, const PreparedKernel& k, std::array<uint32_t, 4>& out) {
  if (o.kind != OperandKind::Vector) {
    out[0] = slot;
    return 1;
  }
  for (int e = 0; e < o.count; ++e) {
    const uint16_t r = k.function->vector_regs[o.reg + e];
    out[e] = r == kNoReg ? kNoSlot : r;
  }
  return o.count;
}

uint64_t atomic_apply(const Instruction& ins, uint64_t old, uint64_t b, uint64_t c, uint32_t size) {
  const int bits = static_cast<int>(size * 8);
  const DataType t = ins.type;
  switch (ins.atomic) {
    case AtomicOp::Add:
      if (t == DataType::F32) return f32_to_bits(as_f32(old) + as_f32(b));
      if (t == DataType::F64) return f64_to_bits(as_f64(old) + as_f64(b));
      return old + b;
    case AtomicOp::Min: case AtomicOp::Max: {
      const bool is_max = ins.atomic == AtomicOp::Max;
      bool b_wins;
      if (t == DataType::F32) {
        b_wins = is_max ? as_f32(b) > as_f32(old) : as_f32(b) < as_f32(old);
      } else if (is_signed(t)) {
        b_wins = is_max ? sign_extend(b, bits) > sign_extend(old, bits) : sign_extend(b, bits) < sign_extend(old, bits);
      } else {
        b_wins = is_max ? (b & low_mask(bits)) > old : (b & low_mask(bits)) < old;
      }
      return b_wins ? b : old;
    }
    case AtomicOp::Exch: return b;
    case AtomicOp::Cas: return old == (b & low_mask(bits)) ? c : old;
    case AtomicOp::And: return old & b;
    case AtomicOp::Or: return old | b;
    case AtomicOp::Xor: return old ^ b;
    default: return old;
  }
}

// cp.async [shared], [global], size(, valid): valid bytes copied (none read when 0), the rest of
// size zeroed; at once, so that its commit and wait have nothing left to wait for.
void exec_cp_async(uint32_t pc, const Instruction& ins, const PreparedInstruction& p, const PreparedKernel& k,
                   RegisterFile regs, uint32_t exec, MemoryContext& m, MemoryEffect& effect) {
  std::array<uint64_t, kMaxAccesses> addresses;
  int read = 0;
  for_lanes(exec, [&](uint32_t l) {
    const uint32_t size = static_cast<uint32_t>(regs.get(p.slot[2], l));
    const uint32_t valid =
        ins.operand_count > 3 ? std::min<uint32_t>(size, static_cast<uint32_t>(regs.get(p.slot[3], l))) : size;
    const uint64_t to = lane_address(ins.operands[0], p.slot[0], regs, l);
    const uint64_t from = lane_address(ins.operands[1], p.slot[1], regs, l);
    std::byte* where = locate(Target::Shared, to, size, false, k, pc, m, l, true);
    if (valid > 0) {
      std::memcpy(where, locate(Target::Global, from, valid, false, k, pc, m, l, false), valid);
      addresses[read++] = from;
    }
    std::memset(where + valid, 0, size - valid);
  });
  effect.op_class = OpClass::GlobalLoad;
  effect.transactions = count_sectors(addresses, read, m.sectors);
}

// ldmatrix.m8n8.x{1,2,4}[.trans].shared.b16: lanes 8j..8j+7 give the addresses of matrix j's
// eight 16-byte rows; lane l receives, of each matrix, elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1),
// or with .trans (2(l%4), l/4) and (2(l%4)+1, l/4), the first in the low half.
void exec_ldmatrix(uint32_t pc, const Instruction& ins, const PreparedInstruction& p, const PreparedKernel& k,
                   RegisterFile regs, uint32_t exec, MemoryContext& m, MemoryEffect& effect) {
  if (exec != 0xffffffffu) throw std::runtime_error("PTX interpreter: " + k.function->describe(pc) + " run by part of a warp");
  const int matrices = ins.vector;
  std::array<uint32_t, 4> d;
  data_registers(ins.operands[0], p.slot[0], k, d);
  std::array<std::array<uint16_t, 8>, 32> rows;
  std::array<uint64_t, kMaxAccesses> addresses;
  for (uint32_t lane = 0; lane < static_cast<uint32_t>(8 * matrices); ++lane) {
    const uint64_t a = lane_address(ins.operands[1], p.slot[1], regs, lane);
    std::memcpy(rows[lane].data(), locate(Target::Shared, a, 16, false, k, pc, m, lane, false), 16);
    addresses[lane] = a;
  }
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (int j = 0; j < matrices; ++j) {
      const uint32_t r = lane / 4, c = 2 * (lane % 4);
      const uint32_t lo = ins.trans ? rows[8 * j + c][r] : rows[8 * j + r][c];
      const uint32_t hi = ins.trans ? rows[8 * j + c + 1][r] : rows[8 * j + r][c + 1];
      if (d[j] != kNoSlot) regs.at(d[j], lane) = lo | hi << 16;
    }
  effect.op_class = OpClass::SharedLoad;
  effect.transactions = count_wavefronts(addresses, 8 * matrices, 16);
}

}  // namespace

bool exec_memory(uint32_t pc, const Instruction& ins, const PreparedInstruction& p, const PreparedKernel& k,
                 RegisterFile regs, uint32_t exec, MemoryContext& m, MemoryEffect& effect) {
  effect = {p.op_class, 1};
  if (ins.op == Opcode::Cvta) {
    const uint32_t a = p.slot[1], d = p.slot[0];
    const uint64_t shift = ins.space == StateSpace::Shared ? kSharedWindow : 0;
    for_lanes(exec, [&](uint32_t l) {
      const uint64_t v = regs.get(a, l);
      regs.at(d, l) = ins.to_space ? v - shift : v + shift;
    });
    return true;
  }
  if (ins.op == Opcode::CpAsync) {
    exec_cp_async(pc, ins, p, k, regs, exec, m, effect);
    return true;
  }
  if (ins.op == Opcode::Ldmatrix) {
    exec_ldmatrix(pc, ins, p, k, regs, exec, m, effect);
    return true;
  }
  const bool load = ins.op == Opcode::Ld;
  const bool atomic = ins.op == Opcode::Atom || ins.op == Opcode::Red;
  if (!load && !atomic && ins.op != Opcode::St) return false;

  // ld d, [a] / atom d, [a], b(, c): the address is operand 1; st [a], v / red [a], b: operand 0.
  const int address_index = (load || ins.op == Opcode::Atom) ? 1 : 0;
  const Operand& address = ins.operands[address_index];
  const uint32_t address_slot = p.slot[address_index];
  const uint32_t size = static_cast<uint32_t>(type_bits(ins.type) / 8);
  const Target target = target_of(ins, address, address_slot, regs, exec);
  const bool generic = ins.space == StateSpace::None || ins.space == StateSpace::Generic;

  if (target == Target::Param) {  // uniform: the kernel's arguments
    if (!load || address.kind != OperandKind::Param) {
      throw std::runtime_error("PTX interpreter: " + k.function->describe(pc) + ": only ld from a named parameter is supported");
    }
    const Param& param = k.function->params[address_slot];
    const uint64_t raw = load_bits(m.params + param.offset + address.value, size);
    const uint32_t d = p.slot[0];
    const uint64_t v = extend_for_register(raw, ins.type, k.register_bits[d]);
    for_lanes(exec, [&](uint32_t l) { regs.at(d, l) = v; });
    return true;
  }

  std::array<uint64_t, kMaxAccesses> addresses;
  int accesses = 0;
  if (atomic) {
    const uint32_t d = ins.op == Opcode::Atom ? p.slot[0] : kNoSlot;
    const int b_index = address_index + 1;
    const uint32_t b = p.slot[b_index];
    const uint32_t c = ins.atomic == AtomicOp::Cas ? p.slot[b_index + 1] : kNoSlot;
    for_lanes(exec, [&](uint32_t l) {  // lanes in order: the hardware serialises them somehow
      const uint64_t a = lane_address(address, address_slot, regs, l);
      std::byte* where = locate(target, a, size, generic, k, pc, m, l, true);
      const uint64_t old = load_bits(where, size);
      const uint64_t updated = atomic_apply(ins, old, regs.get(b, l), c == kNoSlot ? 0 : regs.get(c, l), size);
      store_bits(where, updated, size);
      if (d != kNoSlot) regs.at(d, l) = extend_for_register(old, ins.type, k.register_bits[d]);
      addresses[accesses++] = a;
    });
    // Transactions = distinct addresses; a global atomic lists the sector of each.
    std::sort(addresses.begin(), addresses.begin() + accesses);
    accesses = static_cast<int>(std::unique(addresses.begin(), addresses.begin() + accesses) - addresses.begin());
    effect.transactions = static_cast<uint16_t>(accesses);
    if (target == Target::Global && m.sectors) {
      for (int i = 0; i < accesses; ++i) m.sectors->push_back(addresses[i] >> 5);
    }
    return true;
  }

  const Operand& data = ins.operands[load ? 0 : 1];
  std::array<uint32_t, 4> data_slots;
  const int elements = data_registers(data, p.slot[load ? 0 : 1], k, data_slots);
  for_lanes(exec, [&](uint32_t l) {
    const uint64_t a = lane_address(address, address_slot, regs, l);
    for (int e = 0; e < elements; ++e) {
      const uint64_t element_address = a + static_cast<uint64_t>(e) * size;
      addresses[accesses++] = generic && target == Target::Shared ? element_address - kSharedWindow : element_address;
      if (load) {
        const std::byte* where = locate(target, element_address, size, generic, k, pc, m, l, false);
        if (data_slots[e] != kNoSlot) {
          regs.at(data_slots[e], l) = extend_for_register(load_bits(where, size), ins.type, k.register_bits[data_slots[e]]);
        }
      } else {
        std::byte* where = locate(target, element_address, size, generic, k, pc, m, l, true);
        const uint64_t v = data.kind == OperandKind::Imm || data_slots[e] != kNoSlot ? regs.get(data_slots[e], l) : 0;
        store_bits(where, v, size);
      }
    }
  });
  if (target == Target::Shared) {
    effect.op_class = load ? OpClass::SharedLoad : OpClass::SharedStore;
    effect.transactions = accesses ? count_wavefronts(addresses, accesses, size) : 0;
  } else {
    effect.op_class = load ? OpClass::GlobalLoad : OpClass::GlobalStore;
    effect.transactions = count_sectors(addresses, accesses, m.sectors);
  }
  return true;
}

}  // namespace ktune::interp
