#include "model/emulator/emu_program.h"

#include <algorithm>

namespace ktune {

size_t EmuBlock::op_count() const {
  size_t n = 0;
  for (const EmuWarp& w : warps) n += w.ops.size();
  return n;
}

namespace {

Resource resource_of(OpClass op) {
  switch (op) {
    case OpClass::IntAlu: return Resource::IntAlu;
    case OpClass::Fp32: return Resource::Fp32;
    case OpClass::Fp64: return Resource::Fp64;
    case OpClass::Sfu: return Resource::Sfu;
    case OpClass::Shuffle:
    case OpClass::SharedLoad:
    case OpClass::SharedStore: return Resource::Shared;
    case OpClass::Atomic: return Resource::Atomic;
    case OpClass::Barrier: return Resource::Barrier;
    // Global accesses never come here; exit is a control instruction like a branch.
    case OpClass::GlobalLoad:
    case OpClass::GlobalStore:
    case OpClass::Branch:
    case OpClass::Exit: return Resource::Branch;
  }
  return Resource::Branch;
}

}  // namespace

EmuOp lower_compute_op(const TraceOp& op) {
  EmuOp e;
  e.deps = op.deps;
  e.region = op.region;
  if (op.op == OpClass::Barrier) {
    e.barrier = true;
    return e;
  }
  // Every instruction occupies its pipe at least once; more transactions (bank-conflict
  // wavefronts, distinct atomic addresses) occupy it once each.
  const uint32_t count = std::max<uint32_t>(1, op.transactions);
  e.uses[0] = {resource_of(op.op), count, static_cast<double>(count)};
  e.use_count = 1;
  return e;
}

}  // namespace ktune
