// The passes over the labels alone: each vertex its own label to start, and pointer jumping
// (label[v] = label[label[v]], KT_JUMPS times), which halves tree depths each round so that
// hooked trees collapse to their root in a few iterations rather than one hop at a time.
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
