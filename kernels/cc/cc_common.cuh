// Shared by every connected-components kernel: CcFamily::source() places this before the
// schedule's own file (NVRTC sees one self-contained translation unit). KT_BLOCK (threads per
// block), KT_ITEMS (vertices or edges per thread), KT_LANES (threads per vertex) and
// KT_ALGORITHM (one of the ALGORITHM_ values, cc_config.h's order) come from -D options, and
// KT_CHUNK (the edge list's entries per recorded row, cc_edges.h).
//
// label[v] is always a vertex of v's component no larger than v: initially v itself, and
// every update takes the minimum with another such vertex. So label[label[v]] is a label of
// v too (pointer jumping is always allowed), and hooking never closes a cycle.
#define ALGORITHM_PROPAGATION 0
#define ALGORITHM_HOOKING 1
#define ALGORITHM_UNION_FIND 2

#if KT_ALGORITHM == ALGORITHM_UNION_FIND
// v's root (the vertex labelled itself), each vertex passed pointed at its grandparent on the
// way (path halving: a plain store, since any ancestor is a correct label). A read another
// thread's hook has not reached yet only returns a vertex that was a root; unite's
// compare-and-swap finds out.
__device__ __forceinline__ int find_root(int* label, int v) {
  int parent = label[v];
  while (parent != v) {
    const int grand = label[parent];
    if (grand == parent) return parent;
    label[v] = grand;
    v = parent;
    parent = grand;
  }
  return v;
}

// Hooks the larger of two roots under the smaller, if it is still a root; else carries on
// from what it was hooked under (the value the compare-and-swap returns), until both ends
// share a root. Whether this edge joined two trees.
__device__ __forceinline__ bool unite(int* label, int u, int v) {
  int ru = find_root(label, u), rv = find_root(label, v);
  while (ru != rv) {
    const int high = max(ru, rv), low = min(ru, rv);
    const int seen = atomicCAS(label + high, high, low);
    if (seen == high) return true;
    ru = seen;
    rv = low;
  }
  return false;
}
#endif

// One undirected edge (u, v): whether its ends are still labelled differently. If so, the
// larger label is lowered to the smaller one: under hooking the larger parent is hooked onto
// the smaller (the trees merge), under label propagation the end with the larger label takes
// the smaller (labels flow one hop).
__device__ __forceinline__ bool link(int* label, int u, int v) {
#if KT_ALGORITHM == ALGORITHM_UNION_FIND
  return unite(label, u, v);
#else
  const int lu = label[u];
  const int lv = label[v];
  if (lu == lv) return false;
#if KT_ALGORITHM == ALGORITHM_HOOKING
  atomicMin(label + max(lu, lv), min(lu, lv));
#else
  atomicMin(label + (lu < lv ? v : u), min(lu, lv));
#endif
  return true;
#endif
}

// The plan's loop stops after an iteration that leaves `flag` 0: any block in which a thread saw
// work left stores 1 there, once. With a store from every warp that saw some, one address took
// tens of thousands of stores an iteration: union-find's edge pass ran 1.25-1.51x slower on
// R-MAT 20 and a uniform graph (H200, bench/results/cc_flag_h200_d9ac462.md). Union-find makes one
// pass and reads no flag, so it reports nothing. Every thread of the block calls both, outside any
// branch: start_change_report() first, then report_change().
__device__ __forceinline__ int& block_saw_change() {
  __shared__ int saw;
  return saw;
}
__device__ __forceinline__ void start_change_report() {
#if KT_ALGORITHM != ALGORITHM_UNION_FIND
  if (threadIdx.x == 0) block_saw_change() = 0;
  __syncthreads();
#endif
}
__device__ __forceinline__ void report_change(bool changed, int* flag) {
#if KT_ALGORITHM != ALGORITHM_UNION_FIND
  if (changed) block_saw_change() = 1;
  __syncthreads();
  if (threadIdx.x == 0 && block_saw_change()) *flag = 1;
#endif
}
