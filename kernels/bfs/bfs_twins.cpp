#include "kernels/bfs/bfs_twins.h"

#include <optional>

#include "kernels/launch_twin.h"

namespace ktune {

namespace {

// bfs_common.cuh's state slots and unreached depth.
constexpr int64_t kQueueItems = 1, kBitmapItems = 2, kPullItems = 3, kToBitmapItems = 4, kToQueueItems = 5,
                  kNextCount = 6, kNextEdges = 7, kQueueTail = 10, kIteration = 11;
constexpr int32_t kUnreached = -1;

template <typename Bits>
bool has_bit(const Bits& bits, int32_t v) { return (bits[v >> 5] >> (v & 31)) & 1u; }
void set_bit(HostArray<uint32_t>& bits, int32_t v) { bits.set(v >> 5, bits[v >> 5] | (1u << (v & 31))); }

// What every expansion reads and writes, from the launch's arguments: n and the source's row
// offset are its last two scalars (bfs_plan.cpp's add_rows).
struct Level {
  HostArray<const int32_t> row_ptr;
  HostArray<int32_t> state, depth;
  std::optional<HostArray<int32_t>> parent;
  int32_t n, offset, level;
  bool counts_edges;

  Level(const LaunchStep& step, PlanMemory& memory, const BfsConfig& c, bool parents)
      : row_ptr(memory, "row_ptr"),
        state(memory, "bfs_state"),
        depth(memory, "depths"),
        n(scalar_arg<int32_t>(step, step.args.size() - 2)),
        offset(scalar_arg<int32_t>(step, step.args.size() - 1)),
        level(state[kIteration] + 1),
        counts_edges(c.direction == BfsDirection::Optimising) {
    if (parents) parent.emplace(memory, "parents");
  }
  // claim() and join_next(): whether w was unreached; if so it joins the next frontier, counted.
  bool claim(int32_t w, int32_t from) {
    if (depth[offset + w] != kUnreached) return false;
    depth.set(offset + w, level);
    if (parent) parent->set(offset + w, from);
    if (counts_edges) state.set(kNextEdges, state[kNextEdges] + row_ptr[w + 1] - row_ptr[w]);
    return true;
  }
};

// bfs_push_queue: the frontier's queue is the half of `queue` the iteration reads.
void push_queue(const LaunchStep& step, PlanMemory& memory, const BfsConfig& c, bool parents) {
  Level l(step, memory, c, parents);
  HostArray<const int32_t> col_idx(memory, "col_idx");
  HostArray<int32_t> queue(memory, "queue");
  const int64_t current = (l.state[kIteration] & 1) * int64_t{l.n}, next = ((l.state[kIteration] + 1) & 1) * int64_t{l.n};
  for (int32_t i = 0, items = l.state[kQueueItems]; i < items; ++i) {
    const int32_t v = queue[current + i];
    for (int32_t e = l.row_ptr[v], end = l.row_ptr[v + 1]; e < end; ++e) {
      const int32_t w = col_idx[e];
      if (!l.claim(w, v)) continue;
      const int32_t slot = l.state[kNextCount];
      l.state.set(kNextCount, slot + 1);
      queue.set(next + slot, w);
    }
  }
}

// bfs_push_bitmap: every vertex whose bit is set pushes; the next frontier is a bitmap.
void push_bitmap(const LaunchStep& step, PlanMemory& memory, const BfsConfig& c, bool parents) {
  Level l(step, memory, c, parents);
  HostArray<const int32_t> col_idx(memory, "col_idx");
  HostArray<const uint32_t> bits(memory, "bitmap");
  HostArray<uint32_t> next_bits(memory, "next_bitmap");
  for (int32_t v = 0, items = l.state[kBitmapItems]; v < items; ++v) {
    if (!has_bit(bits, v)) continue;
    for (int32_t e = l.row_ptr[v], end = l.row_ptr[v + 1]; e < end; ++e) {
      const int32_t w = col_idx[e];
      if (!l.claim(w, v)) continue;
      l.state.set(kNextCount, l.state[kNextCount] + 1);
      set_bit(next_bits, w);
    }
  }
}

// bfs_pull: every unreached vertex takes the first in-neighbour in the frontier as its parent.
void pull(const LaunchStep& step, PlanMemory& memory, const BfsConfig& c, bool parents) {
  Level l(step, memory, c, parents);
  HostArray<const int32_t> in_row_ptr(memory, "in_row_ptr"), in_col_idx(memory, "in_col_idx");
  HostArray<const uint32_t> bits(memory, "bitmap");
  HostArray<uint32_t> next_bits(memory, "next_bitmap");
  for (int32_t v = 0, items = l.state[kPullItems]; v < items; ++v) {
    if (l.depth[l.offset + v] != kUnreached) continue;
    for (int32_t e = in_row_ptr[v], end = in_row_ptr[v + 1]; e < end; ++e) {
      const int32_t u = in_col_idx[e];
      if (!has_bit(bits, u)) continue;
      if (l.claim(v, u)) {
        l.state.set(kNextCount, l.state[kNextCount] + 1);
        set_bit(next_bits, v);
      }
      break;
    }
  }
}

// bfs_queue_to_bitmap: the queue the level wrote, as bits. Its n is the last scalar.
void queue_to_bitmap(const LaunchStep& step, PlanMemory& memory) {
  HostArray<int32_t> state(memory, "bfs_state"), queue(memory, "queue");
  HostArray<uint32_t> bits(memory, "bitmap");
  const int64_t written = (state[kIteration] & 1) * int64_t{scalar_arg<int32_t>(step, step.args.size() - 1)};
  for (int32_t i = 0, items = state[kToBitmapItems]; i < items; ++i) set_bit(bits, queue[written + i]);
}

// bfs_bitmap_to_queue: the bitmap's vertices as the queue the next iteration reads.
void bitmap_to_queue(const LaunchStep& step, PlanMemory& memory) {
  HostArray<int32_t> state(memory, "bfs_state"), queue(memory, "queue");
  HostArray<const uint32_t> bits(memory, "bitmap");
  const int64_t next = (state[kIteration] & 1) * int64_t{scalar_arg<int32_t>(step, step.args.size() - 1)};
  for (int32_t v = 0, items = state[kToQueueItems]; v < items; ++v) {
    if (!has_bit(bits, v)) continue;
    const int32_t slot = state[kQueueTail];
    state.set(kQueueTail, slot + 1);
    queue.set(next + slot, v);
  }
}

}  // namespace

LaunchTwins bfs_twins(const BfsConfig& c, bool parents) {
  LaunchTwins twins;
  const auto with = [&](void (*run)(const LaunchStep&, PlanMemory&, const BfsConfig&, bool)) -> LaunchTwin {
    return [run, c, parents](const LaunchStep& step, PlanMemory& memory) { run(step, memory, c, parents); };
  };
  if (c.pushes_queue()) twins["bfs_push_queue"] = with(push_queue);
  if (c.pushes_bitmap()) twins["bfs_push_bitmap"] = with(push_bitmap);
  if (c.pulls()) twins["bfs_pull"] = with(pull);
  if (c.converts()) {
    twins["bfs_queue_to_bitmap"] = queue_to_bitmap;
    twins["bfs_bitmap_to_queue"] = bitmap_to_queue;
  }
  return twins;
}

}  // namespace ktune
