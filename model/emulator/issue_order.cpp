#include "model/emulator/issue_order.h"

#include <algorithm>

namespace ktune {

namespace {

// Ops a load may not move above, and that end a run.
bool ends_run(OpClass op) {
  return op == OpClass::Branch || op == OpClass::Barrier || op == OpClass::Exit || op == OpClass::GlobalStore ||
         op == OpClass::Atomic || op == OpClass::SharedStore;
}

// Appends ops [begin, end) of `ops` to `order` in ptxas's order (see the header). The scratch
// vectors are the caller's, so that a trace of many short runs allocates nothing per run.
struct RunOrder {
  std::vector<char> feeds_load;
  std::vector<uint32_t> depth, early;

  void append(const std::vector<TraceOp>& ops, uint32_t begin, uint32_t end, std::vector<uint32_t>& order) {
    const uint32_t n = end - begin;
    feeds_load.assign(n, 0);
    depth.assign(n, 0);
    early.clear();
    // Depth: loads of the run on the longest producer chain.
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t d : ops[begin + i].deps) {
        if (d == kNoDep || d < begin || d >= begin + i) continue;
        depth[i] = std::max(depth[i], depth[d - begin] + (ops[d].op == OpClass::GlobalLoad ? 1u : 0u));
      }
    }
    // The loads and, backwards, everything they read.
    for (uint32_t i = n; i-- > 0;) {
      if (ops[begin + i].op == OpClass::GlobalLoad) feeds_load[i] = 1;
      if (!feeds_load[i]) continue;
      for (uint32_t d : ops[begin + i].deps)
        if (d != kNoDep && d >= begin && d < begin + i) feeds_load[d - begin] = 1;
    }
    for (uint32_t i = 0; i < n; ++i)
      if (feeds_load[i]) early.push_back(i);
    // A producer has a lower depth, or the same depth and an earlier position: it stays first.
    std::stable_sort(early.begin(), early.end(), [&](uint32_t a, uint32_t b) { return depth[a] < depth[b]; });
    for (uint32_t i : early) order.push_back(begin + i);
    for (uint32_t i = 0; i < n; ++i)
      if (!feeds_load[i]) order.push_back(begin + i);
  }
};

}  // namespace

void issue_like_ptxas(WarpTrace& warp) {
  std::vector<TraceOp>& ops = warp.ops;
  const uint32_t count = static_cast<uint32_t>(ops.size());
  std::vector<uint32_t> order;  // old index of each new position
  order.reserve(count);
  RunOrder run;
  uint32_t begin = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (!ends_run(ops[i].op)) continue;
    run.append(ops, begin, i, order);
    order.push_back(i);
    begin = i + 1;
  }
  run.append(ops, begin, count, order);

  std::vector<uint32_t> position(count);
  for (uint32_t p = 0; p < count; ++p) position[order[p]] = p;
  std::vector<TraceOp> reordered;
  reordered.reserve(count);
  for (uint32_t old : order) {
    TraceOp op = ops[old];
    for (uint32_t& d : op.deps)
      if (d != kNoDep) d = position[d];
    reordered.push_back(op);
  }
  ops = std::move(reordered);
}

void issue_like_ptxas(BlockTrace& block) {
  for (WarpTrace& w : block.warps) issue_like_ptxas(w);
}

}  // namespace ktune
