#include "model/interp/exec_collective.h"

#include <array>

namespace ktune::interp {

using namespace ptx;

namespace {

void exec_shfl(const Instruction& ins, const PreparedInstruction& p, RegisterFile regs, uint32_t exec) {
  const int first_source = ins.dst_count;
  const uint32_t a = p.slot[first_source], b = p.slot[first_source + 1], c = p.slot[first_source + 2];
  const uint32_t d = p.slot[0];
  const bool has_predicate = ins.dst_count == 2;
  const uint32_t q = has_predicate ? p.slot[1] : kNoSlot;
  std::array<uint64_t, kLanes> source;
  for (uint32_t l = 0; l < kLanes; ++l) source[l] = regs.get(a, l) & 0xffffffffu;
  for_lanes(exec, [&](uint32_t lane) {
    const int32_t bval = static_cast<int32_t>(regs.get(b, lane) & 0x1f);
    const uint32_t cword = static_cast<uint32_t>(regs.get(c, lane));
    const int32_t cval = static_cast<int32_t>(cword & 0x1f);
    const int32_t segmask = static_cast<int32_t>((cword >> 8) & 0x1f);
    const int32_t l = static_cast<int32_t>(lane);
    const int32_t max_lane = (l & segmask) | (cval & ~segmask);
    const int32_t min_lane = l & segmask;
    int32_t j = l;
    bool in_range = false;
    switch (ins.shfl) {
      case ShflMode::Up: j = l - bval; in_range = j >= max_lane; break;
      case ShflMode::Down: j = l + bval; in_range = j <= max_lane; break;
      case ShflMode::Bfly: j = l ^ bval; in_range = j <= max_lane; break;
      case ShflMode::Idx: j = min_lane | (bval & ~segmask); in_range = j <= max_lane; break;
      default: break;
    }
    if (!in_range) j = l;
    regs.at(d, lane) = source[static_cast<uint32_t>(j) & 31];
    if (has_predicate) regs.at(q, lane) = in_range;
  });
}

void exec_vote(const Instruction& ins, const PreparedInstruction& p, RegisterFile regs, uint32_t exec) {
  const uint32_t source = p.slot[1], d = p.slot[0];
  const bool negated = ins.operands[1].negated;
  uint32_t ballot = 0;
  for_lanes(exec, [&](uint32_t l) {
    if ((regs.get(source, l) != 0) != negated) ballot |= 1u << l;
  });
  uint64_t result = ballot;
  if (ins.vote == VoteMode::All) result = ballot == exec;
  if (ins.vote == VoteMode::Any) result = ballot != 0;
  for_lanes(exec, [&](uint32_t l) { regs.at(d, l) = result; });
}

// The lanes executing this instruction together: the warp's current execution mask.
void exec_activemask(const PreparedInstruction& p, RegisterFile regs, uint32_t exec) {
  for_lanes(exec, [&](uint32_t l) { regs.at(p.slot[0], l) = exec; });
}

}  // namespace

bool exec_collective(const Instruction& ins, const PreparedInstruction& p, RegisterFile regs, uint32_t exec) {
  if (ins.op == Opcode::Shfl) {
    exec_shfl(ins, p, regs, exec);
    return true;
  }
  if (ins.op == Opcode::Vote) {
    exec_vote(ins, p, regs, exec);
    return true;
  }
  if (ins.op == Opcode::Activemask) {
    exec_activemask(p, regs, exec);
    return true;
  }
  return false;
}

}  // namespace ktune::interp
