// Shared by every BFS kernel: BfsFamily::source() places it after kernels/graph/graph_queue.cuh,
// so the templates need no #include. Policy comes from -D options (bfs_config.h): KT_BLOCK,
// KT_COARSEN, KT_BALANCE, KT_FRONTIER, KT_DIRECTION, KT_ALPHA, KT_BETA, KT_DENSE_SHIFT and
// KT_PARENTS.
#define KT_UNREACHED (-1)

// The int32 slots of the `state` buffer, which the plan's program reads: the loop runs while
// STATE_FRONTIER (slot 0, the loop's counter) is not zero, and each launch covers the items of
// its own slot, so a launch whose mode is not the current one has no items (and, in a loop
// run by the host, a grid of 0). The iteration lives here too: a loop's launches are the same
// every iteration, so that the loop can run on the device.
#define STATE_FRONTIER 0         // vertices of the current frontier
#define STATE_QUEUE_ITEMS 1      // push over the queue: the frontier's length, else 0
#define STATE_BITMAP_ITEMS 2     // push over the bitmap: the vertex count, else 0
#define STATE_PULL_ITEMS 3       // pull: the vertex count, else 0
#define STATE_TO_BITMAP_ITEMS 4  // the queue just written, when the next level reads a bitmap
#define STATE_TO_QUEUE_ITEMS 5   // the vertex count, when the next level reads the queue a bitmap holds
#define STATE_NEXT_COUNT 6       // vertices discovered by this level (the next queue's tail)
#define STATE_NEXT_EDGES 7       // their out-edges (Beamer's m_f)
#define STATE_UNVISITED_EDGES 8  // out-edges of the vertices not reached yet (Beamer's m_u)
#define STATE_MODE 9             // how the current level runs: one of the MODE_ below
#define STATE_QUEUE_TAIL 10      // bfs_bitmap_to_queue's tail
#define STATE_ITERATION 11       // the loop's iteration: the level being expanded, less one (bfs_plan.h's
                                 // kBfsStateSlots hold them all)

#define MODE_PUSH_QUEUE 0
#define MODE_PUSH_BITMAP 1
#define MODE_PULL 2

// KT_BALANCE (how a tile of frontier vertices spreads their edges over threads) and its
// BALANCE_ values: kernels/graph/graph_expand.cuh, placed after this header.
// KT_FRONTIER and KT_DIRECTION.
#define FRONTIER_QUEUE 0
#define FRONTIER_BITMAP 1
#define FRONTIER_HYBRID 2
#define DIRECTION_PUSH 0
#define DIRECTION_PULL 1
#define DIRECTION_OPTIMISING 2

// Every kernel that can discover a vertex takes its parent array only when parents are asked for.
// KT_PARENT_ROW is this source's row of it (both outputs hold one row of n per source).
#if KT_PARENTS
#define KT_PARENT_PARAM , int* __restrict__ parent
#define KT_PARENT_ROW (parent + offset)
#else
#define KT_PARENT_PARAM
#define KT_PARENT_ROW nullptr
#endif

__device__ __forceinline__ bool has_bit(const unsigned* bits, int v) { return (bits[v >> 5] >> (v & 31)) & 1u; }

__device__ __forceinline__ int out_degree(const int* __restrict__ row_ptr, int v) {
  return row_ptr[v + 1] - row_ptr[v];
}

// The first thread to reach `v` in a level owns it: an atomic claim, so that a vertex joins the
// next frontier once however many of its in-neighbours (or threads) find it. Read as unsigned,
// an unreached depth (-1) is the largest, so the claim is a minimum: it lowers only an
// unreached depth, and its old value says who came first. (atomicCAS would do the same, but
// under NVRTC's -default-device it instantiates a module-level helper variable.)
__device__ __forceinline__ bool claim(int* depth, int v, int level) {
  return atomicMin(reinterpret_cast<unsigned*>(depth + v), (unsigned)level) == (unsigned)KT_UNREACHED;
}

// A vertex just claimed joins the next frontier: counted (the queue's slot), its out-edges
// added for the direction-optimising switch, and stored as a queue entry or a bit.
template <bool ToQueue>
__device__ __forceinline__ void join_next(int v, int* state, int* next_queue, unsigned* next_bits,
                                          const int* __restrict__ row_ptr) {
#if KT_DIRECTION == DIRECTION_OPTIMISING
  atomicAdd(state + STATE_NEXT_EDGES, out_degree(row_ptr, v));
#endif
  if (ToQueue) {
    next_queue[queue_slot(state + STATE_NEXT_COUNT)] = v;
  } else {
    atomicAdd(state + STATE_NEXT_COUNT, 1);
    atomicOr(next_bits + (v >> 5), 1u << (v & 31));
  }
}
