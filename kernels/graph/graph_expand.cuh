// The edge expansion of a graph pass over a frontier, in five load-balancing schedules
// (KT_BALANCE), shared by the BFS and SSSP kernels (the family places it after its common
// header; KT_BLOCK, KT_COARSEN and KT_BALANCE come from -D options). A kernel hands expand()
// an operation over a range of `items` (frontier queue slots, or vertex ids):
//   bool vertex(int item, int& v, int& begin, int& end): whether the item is a vertex to
//     expand, and the range of its edges;
//   bool edge(int v, int e): visits edge e of v; true when v needs no more of its edges (a
//     pull that found a parent).
// An operation may also declare `static constexpr int kBatch` (> 1) and
//   void edges(const int (&v)[kBatch], const int (&e)[kBatch], int live): the first `live`
//     of kBatch edges (the rest repeat a live one, to be ignored; `live` may be 0);
// the schedules that share out edges (segment, tile) then hand each thread kBatch edges at once,
// so that their loads are in flight together (a relaxation is a chain of dependent loads), and
// call edges() from every lane of a warp together, so that it may use warp-wide operations.
// A tile is KT_TILE_ITEMS items (expand_tile_items in kernels/graph/expand_tile.h sizes the
// grid on the host: a tile a block).
#define KT_FULL_MASK 0xffffffffu
#define BALANCE_THREAD 0
#define BALANCE_WARP 1
#define BALANCE_BLOCK 2
#define BALANCE_SEGMENT 3
#define BALANCE_TILE 4
#if KT_BALANCE == BALANCE_WARP
#define KT_TILE_ITEMS ((KT_BLOCK / 32) * KT_COARSEN)
#elif KT_BALANCE == BALANCE_BLOCK
#define KT_TILE_ITEMS KT_COARSEN
#else
#define KT_TILE_ITEMS (KT_BLOCK * KT_COARSEN)
#endif

// Thread per vertex (KT_COARSEN of them, a block apart): no cooperation, best on short, even degrees.
template <class Op>
__device__ __forceinline__ void expand_thread(const Op& op, int items, int tile) {
  const int first = tile * KT_TILE_ITEMS + threadIdx.x;
  // Not unrolled: each copy of the divergent edge loop would hold its own convergence state for
  // the warp-wide appends inside op.edge (graph_queue.cuh), and ptxas spills those beyond a few.
#pragma unroll 1
  for (int c = 0; c < KT_COARSEN; ++c) {
    const int item = first + c * KT_BLOCK;
    int v, begin, end;
    if (item < items && op.vertex(item, v, begin, end)) {
      for (int e = begin; e < end; ++e)
        if (op.edge(v, e)) break;
    }
  }
}

// Warp per vertex: the lanes read 32 edges at a time, coalesced; a pull stops at the first
// round that finds a parent. Lane 0's view of the vertex is the warp's.
template <class Op>
__device__ __forceinline__ void expand_warp(const Op& op, int items, int tile) {
  const int lane = threadIdx.x % 32;
  const int first = tile * KT_TILE_ITEMS + threadIdx.x / 32;
  for (int c = 0; c < KT_COARSEN; ++c) {
    const int item = first + c * (KT_BLOCK / 32);
    int v = 0, begin = 0, end = 0;
    const bool active = item < items && op.vertex(item, v, begin, end);
    if (!__shfl_sync(KT_FULL_MASK, (int)active, 0)) continue;
    v = __shfl_sync(KT_FULL_MASK, v, 0);
    begin = __shfl_sync(KT_FULL_MASK, begin, 0);
    end = __shfl_sync(KT_FULL_MASK, end, 0);
    for (int base = begin; base < end; base += 32) {
      const bool done = base + lane < end && op.edge(v, base + lane);
      if (__any_sync(KT_FULL_MASK, done)) break;
    }
  }
}

// Block per vertex: for the hubs of a power-law graph. Thread 0 reads the vertex for the block;
// two barriers a round keep a pull's early stop the same for every thread.
template <class Op>
__device__ __forceinline__ void expand_block(const Op& op, int items, int tile) {
  __shared__ int shared_vertex, shared_begin, shared_end, stop;
  for (int c = 0; c < KT_COARSEN; ++c) {
    const int item = tile * KT_TILE_ITEMS + c;
    __syncthreads();  // the previous vertex's readers are done with the shared slots
    if (threadIdx.x == 0) {
      int v = 0, begin = 0, end = 0;
      if (!(item < items && op.vertex(item, v, begin, end))) begin = end = 0;
      shared_vertex = v;
      shared_begin = begin;
      shared_end = end;
      stop = 0;
    }
    __syncthreads();
    const int v = shared_vertex, end = shared_end;
    for (int base = shared_begin; base < end; base += KT_BLOCK) {
      if (base + (int)threadIdx.x < end && op.edge(v, base + threadIdx.x)) stop = 1;
      __syncthreads();
      const bool done = stop;
      __syncthreads();
      if (done) break;
    }
  }
}

// Exclusive prefix sum of `value` over a group of Group threads (a warp, or the whole block),
// and the group's total.
template <int Group>
__device__ __forceinline__ int group_exclusive_scan(int value, int& total) {
  const int lane = threadIdx.x % 32;
  int inclusive = value;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(KT_FULL_MASK, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  if (Group == 32) {
    total = __shfl_sync(KT_FULL_MASK, inclusive, 31);
    return inclusive - value;
  }
  __shared__ int warp_total[KT_BLOCK / 32];
  const int warp = threadIdx.x / 32;
  if (lane == 31) warp_total[warp] = inclusive;
  __syncthreads();
  int before = 0;
  total = 0;
  for (int w = 0; w < KT_BLOCK / 32; ++w) {
    const int t = warp_total[w];
    if (w < warp) before += t;
    total += t;
  }
  return before + inclusive - value;
}

template <int Group>
__device__ __forceinline__ void group_sync() {
  if (Group == 32) {
    __syncwarp();
  } else {
    __syncthreads();
  }
}

// A group of Group threads takes Group * KT_COARSEN items; their edges, concatenated, go to the
// group's threads in turn, so every thread visits the same number of edges whatever the
// degrees (nonzero splitting within the tile, digest-004 §2.4.2 variant B). With Group 32 this
// is warp segmentation over a frontier (KiTES's dynamic assignment, digest-003 §2.4): each
// edge finds its vertex by a binary search over the warp's prefix sums in shared memory.
template <class Op, class = void>
struct edge_batch {
  static constexpr int value = 1;
};
template <class Op>
struct edge_batch<Op, decltype(void(Op::kBatch))> {
  static constexpr int value = Op::kBatch;
};

// Items [first, end) of the frontier, at most KT_TILE_ITEMS: the slots of a thread past `end`
// hold no vertex.
template <int Group, class Op>
__device__ __forceinline__ void expand_flat(const Op& op, int first, int end) {
  constexpr int kSlots = Group * KT_COARSEN;
  constexpr int kBatch = edge_batch<Op>::value;
  static_assert((kSlots & (kSlots - 1)) == 0, "the search halves the slots: a power of two");
  __shared__ int first_edge[KT_BLOCK * KT_COARSEN];  // of each slot, in the group's concatenation
  __shared__ int begin_of[KT_BLOCK * KT_COARSEN];
  __shared__ int vertex_of[KT_BLOCK * KT_COARSEN];
  const int rank = threadIdx.x % Group;
  const int group_slots = (threadIdx.x - rank) * KT_COARSEN;
  const int first_item = first + threadIdx.x * KT_COARSEN;
  group_sync<Group>();  // the group's previous tile is done with the shared slots
  int degree[KT_COARSEN];
  int count = 0;
#pragma unroll
  for (int c = 0; c < KT_COARSEN; ++c) {
    int v = 0, begin = 0, edges_end = 0;
    const bool active = first_item + c < end && op.vertex(first_item + c, v, begin, edges_end);
    degree[c] = active ? edges_end - begin : 0;
    begin_of[threadIdx.x * KT_COARSEN + c] = begin;
    vertex_of[threadIdx.x * KT_COARSEN + c] = v;
    count += degree[c];
  }
  int total;
  int run = group_exclusive_scan<Group>(count, total);
#pragma unroll
  for (int c = 0; c < KT_COARSEN; ++c) {
    first_edge[threadIdx.x * KT_COARSEN + c] = run;
    run += degree[c];
  }
  group_sync<Group>();
  const int* offsets = first_edge + group_slots;
  // `total` is the group's, so every lane takes each round: with batches a lane past the end
  // still calls edges() (no live edge), which then runs with the whole warp.
  for (int base = 0; base < total; base += Group * kBatch) {
    const int k = base + rank;
    if (kBatch == 1 && k >= total) break;
    int v[kBatch], e[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int at = min(k + b * Group, total - 1);  // past the end: a live edge again
      // The last slot whose edges start at or before `at` (slot 0's start, 0, always does): a
      // slot without edges starts where its successor does, so the search passes over it. A
      // fixed number of halvings, unrolled, lets a batch's searches run side by side.
      int lo = 0;
#pragma unroll
      for (int half = kSlots / 2; half > 0; half /= 2)
        if (offsets[lo + half] <= at) lo += half;
      v[b] = vertex_of[group_slots + lo];
      e[b] = begin_of[group_slots + lo] + at - offsets[lo];
    }
    if constexpr (kBatch == 1) {
      op.edge(v[0], e[0]);
    } else {
      op.edges(v, e, k < total ? min(kBatch, (total - 1 - k) / Group + 1) : 0);
    }
  }
}

// Block b expands tiles b, b + gridDim.x, ...: a grid sized from the frontier has one tile a
// block; a loop the device runs launches one wave of blocks whatever the frontier, and they
// stride over it (kernels/launch_plan.h). `items` is the same in every thread.
template <class Op>
__device__ __forceinline__ void expand(const Op& op, int items) {
#if KT_BALANCE == BALANCE_TILE
  // A wave of blocks striding over a frontier of few tiles would leave most blocks idle (a large
  // frontier's hubs, a few tiles of millions of edges): the tile shrinks until every block has
  // items. A grid sized from the frontier gives each block a full tile.
  const int per_tile = max(1, min(KT_TILE_ITEMS, (items + (int)gridDim.x - 1) / (int)gridDim.x));
  for (int first = blockIdx.x * per_tile; first < items; first += gridDim.x * per_tile)
    expand_flat<KT_BLOCK>(op, first, min(first + per_tile, items));
#else
  for (int tile = blockIdx.x; tile * KT_TILE_ITEMS < items; tile += gridDim.x) {
#if KT_BALANCE == BALANCE_THREAD
    expand_thread(op, items, tile);
#elif KT_BALANCE == BALANCE_WARP
    expand_warp(op, items, tile);
#elif KT_BALANCE == BALANCE_BLOCK
    expand_block(op, items, tile);
#else
    expand_flat<32>(op, tile * KT_TILE_ITEMS, min((tile + 1) * KT_TILE_ITEMS, items));
#endif
  }
#endif
}
