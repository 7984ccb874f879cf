// The passes over the labels alone: each vertex its own label to start, pointer jumping
// (label[v] = label[label[v]], KT_JUMPS times), which halves tree depths each round so that
// hooked trees collapse to their root in a few iterations rather than one hop at a time, and
// union-find's last pass, which takes every vertex to its root.
extern "C" __global__ void __launch_bounds__(KT_BLOCK) cc_init(int n, int* __restrict__ label) {
  const int v = blockIdx.x * KT_BLOCK + threadIdx.x;
  if (v < n) label[v] = v;
}

#if KT_JUMPS > 0
extern "C" __global__ void __launch_bounds__(KT_BLOCK) cc_jump(int n, int* label) {
  const int v = blockIdx.x * KT_BLOCK + threadIdx.x;
  if (v >= n) return;
  int l = label[v];
#pragma unroll
  for (int j = 0; j < KT_JUMPS; ++j) l = label[l];
  label[v] = l;
}
#endif

#if KT_ALGORITHM == ALGORITHM_UNION_FIND
// After the edge pass no root changes: following labels to a self-labelled vertex finds it,
// whatever the other threads' writes (each an ancestor's id) are doing to the paths.
extern "C" __global__ void __launch_bounds__(KT_BLOCK) cc_compress(int n, int* label) {
  const int v = blockIdx.x * KT_BLOCK + threadIdx.x;
  if (v >= n) return;
  int root = label[v];
  for (int up = label[root]; up != root; up = label[root]) root = up;
  label[v] = root;
}
#endif
