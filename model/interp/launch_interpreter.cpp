// The block loop of the interpreter: warps, their reconvergence stacks, barriers and the
// trace (interpreter.h describes the model).
#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "model/interp/exec_alu.h"
#include "model/interp/exec_collective.h"
#include "model/interp/exec_memory.h"
#include "model/interp/exec_mma.h"
#include "model/interp/interpreter.h"
#include "workload/input_error.h"

namespace ktune::interp {

using namespace ptx;

namespace {

// A path of a warp: the lanes in `mask` run from `pc` until they reach `reconverge_pc`.
struct StackEntry {
  uint32_t pc = 0;
  uint32_t reconverge_pc = kExitBlock;
  uint32_t mask = 0;
};

struct Warp {
  std::vector<uint64_t> slots;
  std::vector<StackEntry> stack;
  std::vector<uint32_t> last_writer;  // per register: the trace op that last wrote it
  bool waiting = false;               // at bar.sync
  bool done = false;
};

std::vector<std::byte> pack_arguments(const PtxFunction& f, const LaunchStep& step, const HostMemory& memory) {
  // TMA and clusters are sm_90 hardware the interpreter has no model of: it declines such
  // launches before reading any argument (families say so beforehand through emulable()).
  if (step.has_tensor_maps())
    throw InputError("launch of " + f.name + " takes a tensor map (TMA), which the interpreter does not run");
  if (step.clustered())
    throw InputError("launch of " + f.name + " runs in thread-block clusters, which the interpreter does not run");
  if (step.args.size() != f.params.size()) {
    throw InputError("launch of " + f.name + " passes " + std::to_string(step.args.size()) +
                     " arguments; the kernel takes " + std::to_string(f.params.size()));
  }
  std::vector<std::byte> bytes(f.param_bytes);
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    const KernelArg& a = step.args[i];
    auto put = [&](const void* v, size_t n) {
      if (n != p.size) {
        throw InputError("argument " + std::to_string(i) + " of " + f.name + " has " + std::to_string(n) +
                         " bytes; parameter " + p.name + " has " + std::to_string(p.size));
      }
      std::memcpy(bytes.data() + p.offset, v, n);
    };
    if (!a.buffer.empty()) {
      const uint64_t address = memory.address_of(a.buffer);
      put(&address, sizeof address);
    } else {
      std::visit([&](auto v) { put(&v, sizeof v); }, a.scalar);
    }
  }
  return bytes;
}

}  // namespace

struct LaunchInterpreter::State {
  const PtxFunction& f;
  PreparedKernel k;
  Dim3 grid, block;
  HostMemory& memory;
  InterpretLimits limits;
  uint64_t executed = 0;  // warp instructions over every block run so far
  std::vector<std::byte> params;
  std::vector<std::byte> shared;
  uint32_t threads = 0;
  std::vector<Warp> warps;

  State(const PtxFunction& fn, const LaunchStep& step, HostMemory& mem, InterpretLimits l)
      : f(fn), k(prepare_kernel(fn)), grid(step.grid), block(step.block), memory(mem), limits(l) {
    params = pack_arguments(fn, step, mem);
    // The dynamic array starts where the static ones end, aligned as it is declared.
    uint64_t dynamic_start = fn.static_shared_bytes;
    for (const SharedVariable& v : fn.shared)
      if (v.dynamic) dynamic_start = std::max<uint64_t>(dynamic_start, v.offset);
    shared.resize(dynamic_start + step.shared_bytes);
    threads = block.x * block.y * block.z;
    if (threads == 0 || threads > 1024) {
      throw InputError("block of " + std::to_string(threads) + " threads for " + fn.name);
    }
    warps.resize((threads + kLanes - 1) / kLanes);
    for (Warp& w : warps) {
      w.slots.assign(static_cast<size_t>(k.slot_count) * kLanes, 0);
      for (size_t c = 0; c < k.constants.size(); ++c) {
        std::fill_n(w.slots.begin() + (k.register_count + c) * kLanes, kLanes, k.constants[c]);
      }
      w.last_writer.assign(k.register_count, kNoDep);
    }
  }

  int64_t blocks() const { return int64_t{grid.x} * grid.y * grid.z; }

  void start_warp(uint32_t index, int64_t linear_block) {
    Warp& w = warps[index];
    const uint64_t cx = static_cast<uint64_t>(linear_block) % grid.x;
    const uint64_t cy = static_cast<uint64_t>(linear_block) / grid.x % grid.y;
    const uint64_t cz = static_cast<uint64_t>(linear_block) / (uint64_t{grid.x} * grid.y);
    RegisterFile regs{w.slots.data()};
    auto special = [&](Special s) { return k.special_base + static_cast<uint32_t>(s); };
    uint32_t mask = 0;
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
      const uint32_t t = index * kLanes + lane;
      if (t < threads) mask |= 1u << lane;
      const uint64_t bit = uint64_t{1} << lane;
      const uint64_t values[kSpecialCount] = {
          t % block.x, t / block.x % block.y, t / (block.x * block.y), block.x, block.y, block.z,
          cx, cy, cz, grid.x, grid.y, grid.z, lane, index, warps.size(),
          bit, bit - 1, (bit << 1) - 1, ~((bit << 1) - 1) & 0xffffffffu, ~(bit - 1) & 0xffffffffu,
          0, 0, 0};
      for (int s = 0; s < kSpecialCount; ++s) regs.at(special(static_cast<Special>(s)), lane) = values[s];
    }
    w.stack.assign(1, StackEntry{0, kExitBlock, mask});
    std::fill(w.last_writer.begin(), w.last_writer.end(), kNoDep);
    w.waiting = false;
    w.done = false;
  }

  uint32_t guard_mask(const Instruction& ins, RegisterFile regs, uint32_t mask) const {
    uint32_t taken = 0;
    for_lanes(mask, [&](uint32_t l) {
      if ((regs.get(ins.guard, l) != 0) != ins.guard_negated) taken |= 1u << l;
    });
    return taken;
  }

  // The trace op's producers: the latest writers of the registers it reads.
  static void fill_deps(const Instruction& ins, const Warp& w, TraceOp& op) {
    for (int i = 0; i < ins.read_count; ++i) {
      uint32_t d = w.last_writer[ins.reads[i]];
      if (d == kNoDep) continue;
      for (uint32_t& slot : op.deps) {  // keep the three latest, distinct, in descending order
        if (d == slot) break;
        if (slot == kNoDep || d > slot) std::swap(d, slot);
        if (d == kNoDep) break;
      }
    }
  }

  static void record_writes(const Instruction& ins, Warp& w, uint32_t writer) {
    for (int i = 0; i < ins.write_count; ++i) w.last_writer[ins.writes[i]] = writer;
  }

  // A left-out instruction forwards its sources' producer to its destinations.
  static void forward_writes(const Instruction& ins, Warp& w) {
    uint32_t latest = kNoDep;
    for (int i = 0; i < ins.read_count; ++i) {
      const uint32_t d = w.last_writer[ins.reads[i]];
      if (d != kNoDep && (latest == kNoDep || d > latest)) latest = d;
    }
    record_writes(ins, w, latest);
  }

  [[noreturn]] void fail(uint32_t pc, int64_t blk, const std::string& what) const {
    throw std::runtime_error("PTX interpreter: " + f.describe(pc) + " in block " + std::to_string(blk) + ": " + what);
  }

  // Runs warp `index` until it waits at a barrier or finishes.
  void run_warp(uint32_t index, int64_t blk, WarpTrace* trace, uint64_t& budget) {
    Warp& w = warps[index];
    RegisterFile regs{w.slots.data()};
    MemoryContext m{&memory, shared.data(), static_cast<uint32_t>(shared.size()), params.data(), blk,
                    trace ? &trace->sectors : nullptr};
    const uint32_t code_size = static_cast<uint32_t>(f.code.size());
    for (;;) {
      if (w.stack.empty()) {
        w.done = true;
        return;
      }
      StackEntry& top = w.stack.back();
      if (top.mask == 0 || top.pc == top.reconverge_pc) {
        w.stack.pop_back();
        continue;
      }
      const uint32_t pc = top.pc;
      if (pc >= code_size) fail(code_size - 1, blk, "ran past the end of the kernel");
      if (budget-- == 0) fail(pc, blk, "more than " + std::to_string(limits.max_warp_instructions_per_block) +
                                           " warp instructions: the block does not finish");
      const Instruction& ins = f.code[pc];
      const PreparedInstruction& p = k.code[pc];
      const uint32_t path = top.mask;
      const uint32_t exec = ins.guard == kNoReg ? path : guard_mask(ins, regs, path);

      TraceOp op;
      const bool traced = trace && p.traced;
      if (traced) {
        op.pc = pc;
        op.op = p.op_class;
        op.active_lanes = static_cast<uint8_t>(__builtin_popcount(ins.op == Opcode::Bra ? path : exec));
        op.sector_begin = static_cast<uint32_t>(trace->sectors.size());
        op.region = p.region;
        fill_deps(ins, w, op);
      }

      bool stop = false;
      switch (ins.op) {
        case Opcode::Bra: {
          const uint32_t target = static_cast<uint32_t>(ins.operands[0].value);
          const uint32_t not_taken = path & ~exec;
          if (not_taken == 0) {
            top.pc = target;
          } else if (exec == 0) {
            top.pc = pc + 1;
          } else {  // diverge: the fall-through side runs first, both meet at the ipdom
            const uint32_t meet = p.reconvergence_pc;
            top.pc = meet;
            w.stack.push_back({target, meet, exec});
            w.stack.push_back({pc + 1, meet, not_taken});
          }
          break;
        }
        case Opcode::Ret: case Opcode::Exit:
          for (StackEntry& e : w.stack) e.mask &= ~exec;
          w.stack.back().pc = pc + 1;  // lanes the guard kept go on
          break;
        case Opcode::Bar:
          top.pc = pc + 1;
          stop = exec != 0;
          break;
        case Opcode::Membar:
          top.pc = pc + 1;
          break;
        default: {
          top.pc = pc + 1;
          MemoryEffect effect;
          if (exec_alu(ins, p, k, regs, exec) || exec_collective(ins, p, regs, exec) || exec_mma(ins, p, k, regs, exec)) {
          } else if (exec_memory(pc, ins, p, k, regs, exec, m, effect)) {
            if (traced) {
              op.op = effect.op_class;
              op.transactions = effect.transactions;
              op.global_read_only = ins.non_coherent && effect.op_class == OpClass::GlobalLoad;
              op.evict_first = ins.evict_first && effect.op_class == OpClass::GlobalLoad;
            }
          } else {
            fail(pc, blk, "not implemented");
          }
        }
      }
      if (traced) {
        const uint32_t index_in_trace = static_cast<uint32_t>(trace->ops.size());
        record_writes(ins, w, index_in_trace);
        trace->ops.push_back(op);
      } else if (trace) {
        forward_writes(ins, w);
      }
      if (stop) {
        w.waiting = true;
        return;
      }
    }
  }

  BlockTrace run(int64_t blk, bool tracing) {
    if (blk < 0 || blk >= blocks()) {
      throw InputError("block " + std::to_string(blk) + " is outside the grid of " + std::to_string(blocks()) +
                       " blocks of " + f.name);
    }
    std::fill(shared.begin(), shared.end(), std::byte{0});
    BlockTrace out;
    out.block = blk;
    if (tracing) out.warps.resize(warps.size());
    for (uint32_t i = 0; i < warps.size(); ++i) start_warp(i, blk);
    uint64_t budget = limits.max_warp_instructions_per_block;
    for (;;) {
      for (uint32_t i = 0; i < warps.size(); ++i) {
        if (!warps[i].done && !warps[i].waiting) run_warp(i, blk, tracing ? &out.warps[i] : nullptr, budget);
      }
      bool any_waiting = false;
      for (Warp& w : warps) {
        any_waiting = any_waiting || w.waiting;
        w.waiting = false;  // every live warp has arrived: the barrier opens
      }
      if (!any_waiting) break;
    }
    executed += limits.max_warp_instructions_per_block - budget;
    return out;
  }
};

LaunchInterpreter::LaunchInterpreter(const PtxFunction& f, const LaunchStep& step, HostMemory& memory,
                                     InterpretLimits limits)
    : state_(std::make_unique<State>(f, step, memory, limits)) {}

LaunchInterpreter::~LaunchInterpreter() = default;

int64_t LaunchInterpreter::block_count() const { return state_->blocks(); }

BlockTrace LaunchInterpreter::run_block(int64_t block, bool trace) { return state_->run(block, trace); }

uint64_t LaunchInterpreter::warp_instructions() const { return state_->executed; }

}  // namespace ktune::interp
