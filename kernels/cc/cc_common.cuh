// Shared by every connected-components kernel: CcFamily::source() places this before the
// schedule's own file (NVRTC sees one self-contained translation unit). KT_BLOCK (threads per
// block), KT_ITEMS (vertices or edges per thread), KT_LANES (threads per vertex) and
// KT_HOOKING (1: Shiloach–Vishkin hooking, 0: min-label propagation) come from -D options.
//
// label[v] is always a vertex of v's component no larger than v: initially v itself, and
// every update takes the minimum with another such vertex. So label[label[v]] is a label of
// v too (pointer jumping is always allowed), and hooking never closes a cycle.

// One undirected edge (u, v): whether its ends are still labelled differently. If so, the
// larger label is lowered to the smaller one: under hooking the larger parent is hooked onto
// the smaller (the trees merge), under label propagation the end with the larger label takes
// the smaller (labels flow one hop).
__device__ __forceinline__ bool link(int* label, int u, int v) {
  const int lu = label[u];
  const int lv = label[v];
  if (lu == lv) return false;
#if KT_HOOKING
  atomicMin(label + max(lu, lv), min(lu, lv));
#else
  atomicMin(label + (lu < lv ? v : u), min(lu, lv));
#endif
  return true;
}

// Any thread that saw work left sets the flag; the plan's loop stops after an iteration
// that leaves it 0. A plain store: every writer writes the same 1.
__device__ __forceinline__ void report_change(bool changed, int* flag) {
  if (changed) *flag = 1;
}
