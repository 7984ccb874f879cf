#pragma once
// Loads, stores, atomics and address-space conversions, with what the trace needs of each
// warp access: distinct 32-byte sectors of global accesses (appended to `sectors`),
// shared-memory wavefronts (the most distinct 4-byte words any of the 32 banks must serve;
// lanes reading one word share it), distinct addresses of atomics.
#include <cstdint>
#include <vector>

#include "model/interp/host_memory.h"
#include "model/interp/lane_values.h"

namespace ktune::interp {

struct MemoryContext {
  HostMemory* global = nullptr;
  std::byte* shared = nullptr;
  uint32_t shared_size = 0;
  const std::byte* params = nullptr;
  int64_t block = 0;                        // for messages
  std::vector<uint64_t>* sectors = nullptr;  // null when not tracing
};

struct MemoryEffect {
  OpClass op_class = OpClass::IntAlu;
  uint16_t transactions = 1;
};

// Returns false when the opcode is not a memory operation. An access outside every buffer
// (or outside the block's shared memory) throws std::runtime_error naming the instruction,
// block, lane and address: a kernel bug the CI tests must see.
bool exec_memory(uint32_t pc, const ptx::Instruction& ins, const PreparedInstruction& p,
                 const PreparedKernel& k, RegisterFile regs, uint32_t exec, MemoryContext& m,
                 MemoryEffect& effect);

}  // namespace ktune::interp
