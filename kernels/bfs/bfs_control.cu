// The launches around the expansion: a source's start, the end of each level (where the
// frontier's representation and the direction of the next level are chosen, on the device,
// so that the plan needs no host round trip), and the conversions between queue and bitmap.
// One thread decides; the grids of the next launches follow from the slots it writes.
#define KT_CONVERT_BLOCK 256

// How a push level reads its frontier: KT_FRONTIER, or for the hybrid, the bitmap once the
// frontier holds more than n / 2^KT_DENSE_SHIFT vertices (MultiGraph's sparse/dense switch).
__device__ int push_mode(int frontier, int n) {
#if KT_FRONTIER == FRONTIER_QUEUE
  return MODE_PUSH_QUEUE;
#elif KT_FRONTIER == FRONTIER_BITMAP
  return MODE_PUSH_BITMAP;
#else
  return frontier > (n >> KT_DENSE_SHIFT) ? MODE_PUSH_BITMAP : MODE_PUSH_QUEUE;
#endif
}

// Beamer's direction-optimising rule (as in the GAP benchmark): pull once the frontier's
// out-edges exceed the unvisited vertices' over alpha; back to push once the frontier shrinks
// below n / beta.
__device__ int next_mode(int mode, int frontier, int previous, long long frontier_edges, long long unvisited_edges,
                         int n) {
#if KT_DIRECTION == DIRECTION_PUSH
  return push_mode(frontier, n);
#elif KT_DIRECTION == DIRECTION_PULL
  return MODE_PULL;
#else
  if (mode == MODE_PULL)
    return frontier < previous && (long long)frontier * KT_BETA < n ? push_mode(frontier, n) : MODE_PULL;
  return frontier_edges * KT_ALPHA > unvisited_edges ? MODE_PULL : push_mode(frontier, n);
#endif
}

// The grids of the level about to run: only its mode's expansion gets items.
__device__ void plan_level(int* state, int mode, int frontier, int n) {
  state[STATE_QUEUE_ITEMS] = mode == MODE_PUSH_QUEUE ? frontier : 0;
  state[STATE_BITMAP_ITEMS] = mode == MODE_PUSH_BITMAP && frontier > 0 ? n : 0;
  state[STATE_PULL_ITEMS] = mode == MODE_PULL && frontier > 0 ? n : 0;
}

// The source is level 0, in both representations (the plan clears the bitmaps before).
extern "C" __global__ void bfs_start(const int* __restrict__ row_ptr, int* state, int* queue, unsigned* bits,
                                     int* depth KT_PARENT_PARAM, int n, int nnz, int offset, int source) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  depth[offset + source] = 0;
#if KT_PARENTS
  parent[offset + source] = source;
#endif
  queue[0] = source;
  bits[source >> 5] |= 1u << (source & 31);
  const int mode = next_mode(MODE_PUSH_QUEUE, 1, 0, out_degree(row_ptr, source), nnz, n);
  state[STATE_FRONTIER] = 1;
  state[STATE_TO_BITMAP_ITEMS] = 0;
  state[STATE_TO_QUEUE_ITEMS] = 0;
  state[STATE_NEXT_COUNT] = 0;
  state[STATE_NEXT_EDGES] = 0;
  state[STATE_UNVISITED_EDGES] = nnz - out_degree(row_ptr, source);
  state[STATE_MODE] = mode;
  state[STATE_QUEUE_TAIL] = 0;
  state[STATE_ITERATION] = 0;
  plan_level(state, mode, 1, n);
}

// After a level's expansion: the vertices it discovered are the next frontier, in the
// representation its mode writes (a queue for a push over the queue, a bitmap otherwise);
// when the next level reads the other one, a conversion launch gets the items.
extern "C" __global__ void bfs_level_end(int* state, int n) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const int mode = state[STATE_MODE];
  const int frontier = state[STATE_NEXT_COUNT];
  const int edges = state[STATE_NEXT_EDGES];
  const int unvisited = state[STATE_UNVISITED_EDGES] - edges;
  const int next = frontier > 0 ? next_mode(mode, frontier, state[STATE_FRONTIER], edges, unvisited, n) : mode;
  const bool wrote_queue = mode == MODE_PUSH_QUEUE;
  state[STATE_TO_BITMAP_ITEMS] = wrote_queue && next != MODE_PUSH_QUEUE ? frontier : 0;
  state[STATE_TO_QUEUE_ITEMS] = !wrote_queue && next == MODE_PUSH_QUEUE && frontier > 0 ? n : 0;
  state[STATE_FRONTIER] = frontier;
  state[STATE_NEXT_COUNT] = 0;
  state[STATE_NEXT_EDGES] = 0;
  state[STATE_UNVISITED_EDGES] = unvisited;
  state[STATE_MODE] = next;
  state[STATE_QUEUE_TAIL] = 0;
  state[STATE_ITERATION] += 1;  // the conversions after this launch already serve the next level
  plan_level(state, next, frontier, n);
}

// The queue the level wrote (the half the next iteration reads), as bits.
extern "C" __global__ void __launch_bounds__(KT_CONVERT_BLOCK)
bfs_queue_to_bitmap(const int* state, const int* queue, unsigned* bits, int n) {
  const int items = state[STATE_TO_BITMAP_ITEMS];
  const int* written = queue + (state[STATE_ITERATION] & 1) * n;
  for (int i = blockIdx.x * KT_CONVERT_BLOCK + threadIdx.x; i < items; i += gridDim.x * KT_CONVERT_BLOCK) {
    const int v = written[i];
    atomicOr(bits + (v >> 5), 1u << (v & 31));
  }
}

// The bitmap's vertices as the queue the next iteration reads.
extern "C" __global__ void __launch_bounds__(KT_CONVERT_BLOCK)
bfs_bitmap_to_queue(int* state, const unsigned* bits, int* queue, int n) {
  const int items = state[STATE_TO_QUEUE_ITEMS];
  int* next = queue + (state[STATE_ITERATION] & 1) * n;
  for (int v = blockIdx.x * KT_CONVERT_BLOCK + threadIdx.x; v < items; v += gridDim.x * KT_CONVERT_BLOCK)
    if (has_bit(bits, v)) next[queue_slot(state + STATE_QUEUE_TAIL)] = v;
}
