#include "model/ptx/ptx_cfg.h"

#include <algorithm>

namespace ktune::ptx {

namespace {

bool ends_block(const Instruction& ins) {
  return ins.op == Opcode::Bra || ins.op == Opcode::Ret || ins.op == Opcode::Exit;
}

// Blocks whose last instruction is unconditional never fall through.
bool falls_through(const Instruction& last) {
  if (!ends_block(last)) return true;
  return last.guard != kNoReg;
}

std::vector<uint32_t> leaders(const std::vector<Instruction>& code) {
  std::vector<bool> leader(code.size() + 1, false);
  leader[0] = true;
  for (size_t pc = 0; pc < code.size(); ++pc) {
    const Instruction& ins = code[pc];
    if (ins.op == Opcode::Bra) leader[static_cast<size_t>(ins.operands[0].value)] = true;
    if (ends_block(ins)) leader[pc + 1] = true;
  }
  std::vector<uint32_t> starts;
  for (size_t pc = 0; pc < code.size(); ++pc) {
    if (leader[pc]) starts.push_back(static_cast<uint32_t>(pc));
  }
  return starts;
}

// Immediate post-dominators: dominators of the reverse graph rooted at the virtual exit
// (node n). Blocks that cannot reach the exit keep kExitBlock.
void compute_ipdoms(std::vector<BasicBlock>& blocks) {
  const uint32_t n = static_cast<uint32_t>(blocks.size());
  const uint32_t exit = n;
  auto succ_of = [&](uint32_t b) -> std::vector<uint32_t> {  // successors in the reverse graph
    std::vector<uint32_t> out;
    if (b == exit) {
      for (uint32_t i = 0; i < n; ++i) {
        const auto& s = blocks[i].successors;
        if (std::find(s.begin(), s.end(), kExitBlock) != s.end()) out.push_back(i);
      }
    } else {
      out = blocks[b].predecessors;
    }
    return out;
  };
  // Postorder of the reverse graph from the exit (iterative DFS).
  std::vector<uint32_t> order;
  std::vector<int> post_number(n + 1, -1);
  std::vector<bool> seen(n + 1, false);
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> stack;
  stack.push_back({exit, succ_of(exit)});
  seen[exit] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next.empty()) {
      post_number[node] = static_cast<int>(order.size());
      order.push_back(node);
      stack.pop_back();
      continue;
    }
    const uint32_t child = next.back();
    next.pop_back();
    if (!seen[child]) {
      seen[child] = true;
      stack.push_back({child, succ_of(child)});
    }
  }
  constexpr uint32_t kUndefined = UINT32_MAX;
  std::vector<uint32_t> idom(n + 1, kUndefined);
  idom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (post_number[a] < post_number[b]) a = idom[a];
      while (post_number[b] < post_number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // reverse postorder
      const uint32_t b = *it;
      if (b == exit) continue;
      uint32_t new_idom = kUndefined;
      for (uint32_t s : blocks[b].successors) {  // predecessors in the reverse graph
        const uint32_t p = s == kExitBlock ? exit : s;
        if (idom[p] == kUndefined) continue;
        new_idom = new_idom == kUndefined ? p : intersect(p, new_idom);
      }
      if (new_idom != kUndefined && idom[b] != new_idom) {
        idom[b] = new_idom;
        changed = true;
      }
    }
  }
  for (uint32_t b = 0; b < n; ++b) {
    blocks[b].ipdom = (idom[b] == kUndefined || idom[b] == exit) ? kExitBlock : idom[b];
  }
}

}  // namespace

uint32_t Cfg::reconvergence_pc(uint32_t pc) const {
  const uint32_t ipdom = blocks[block_of[pc]].ipdom;
  return ipdom == kExitBlock ? kExitBlock : blocks[ipdom].begin;
}

Cfg build_cfg(const std::vector<Instruction>& code) {
  Cfg cfg;
  if (code.empty()) return cfg;
  const std::vector<uint32_t> starts = leaders(code);
  cfg.block_of.assign(code.size(), 0);
  for (size_t b = 0; b < starts.size(); ++b) {
    BasicBlock block;
    block.begin = starts[b];
    block.end = b + 1 < starts.size() ? starts[b + 1] : static_cast<uint32_t>(code.size());
    for (uint32_t pc = block.begin; pc < block.end; ++pc) cfg.block_of[pc] = static_cast<uint32_t>(b);
    cfg.blocks.push_back(block);
  }
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    BasicBlock& block = cfg.blocks[b];
    const Instruction& last = code[block.end - 1];
    auto add = [&](uint32_t s) {
      if (std::find(block.successors.begin(), block.successors.end(), s) == block.successors.end())
        block.successors.push_back(s);
    };
    if (last.op == Opcode::Bra) add(cfg.block_of[static_cast<size_t>(last.operands[0].value)]);
    if (last.op == Opcode::Ret || last.op == Opcode::Exit) add(kExitBlock);
    if (falls_through(last)) {
      // Running off the end of the function leaves it, as ret would.
      add(block.end < code.size() ? cfg.block_of[block.end] : kExitBlock);
    }
  }
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    for (uint32_t s : cfg.blocks[b].successors) {
      if (s != kExitBlock) cfg.blocks[s].predecessors.push_back(b);
    }
  }
  compute_ipdoms(cfg.blocks);
  return cfg;
}

}  // namespace ktune::ptx
