// Push: the frontier's vertices claim their unreached out-neighbours for the next level. Over
// the queue (a list of the frontier, written by the level before) the items are the queue's
// length; over the bitmap they are every vertex (when this level pushes over it), and those
// whose bit is clear are skipped.
template <bool FromQueue>
struct Push {
  const int* __restrict__ row_ptr;
  const int* __restrict__ col_idx;
  int* state;
  const int* current;  // FromQueue: the frontier's queue
  const unsigned* bits;  // otherwise: its bitmap
  int* next_queue;
  unsigned* next_bits;
  int* depth;
  int* parent;
  int level;

  __device__ bool vertex(int item, int& v, int& begin, int& end) const {
    v = FromQueue ? current[item] : item;
    if (!FromQueue && !has_bit(bits, v)) return false;
    begin = row_ptr[v];
    end = row_ptr[v + 1];
    return true;
  }
  __device__ bool edge(int v, int e) const {
    const int w = col_idx[e];
    if (depth[w] == KT_UNREACHED && claim(depth, w, level)) {
#if KT_PARENTS
      parent[w] = v;
#endif
      join_next<FromQueue>(w, state, next_queue, next_bits, row_ptr);
    }
    return false;
  }
};

// The queue ping-pongs between the halves of `queue` (2n entries) by the loop's iteration.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
bfs_push_queue(const int* __restrict__ row_ptr, const int* __restrict__ col_idx, int* state, int* queue,
               int* depth KT_PARENT_PARAM, int n, int offset) {
  const int iteration = state[STATE_ITERATION];
  Push<true> op{row_ptr, col_idx, state, queue + (iteration & 1) * n, nullptr, queue + ((iteration + 1) & 1) * n,
                nullptr, depth + offset, KT_PARENT_ROW, iteration + 1};
  expand(op, state[STATE_QUEUE_ITEMS]);
}

extern "C" __global__ void __launch_bounds__(KT_BLOCK)
bfs_push_bitmap(const int* __restrict__ row_ptr, const int* __restrict__ col_idx, int* state, const unsigned* bits,
                unsigned* next_bits, int* depth KT_PARENT_PARAM, int n, int offset) {
  Push<false> op{row_ptr, col_idx, state, nullptr, bits, nullptr, next_bits, depth + offset, KT_PARENT_ROW,
                 state[STATE_ITERATION] + 1};
  expand(op, state[STATE_BITMAP_ITEMS]);
}
