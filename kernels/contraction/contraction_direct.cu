// A tensor contraction, a thread per COARSEN x COARSEN2 tile of outputs: COARSEN consecutive
// ones along the output's fastest index, times COARSEN2 along its first index that comes from
// the other operand (KT_D2). Each summed term then loads COARSEN elements of one operand and
// COARSEN2 of the other for COARSEN x COARSEN2 multiply-adds (the register tile the chapter's
// coarsening builds). The summed indices are walked in order, UNROLL at a time. Parameters (-D):
// KT_T, KT_BLOCK, KT_COARSEN, KT_COARSEN2, KT_D2, KT_UNROLL, KT_SUBTRACT (1: out = in - A·B),
// KT_EXTENT, KT_NOUT, KT_NCON, KT_CONTRACTED (= KT_EXTENT^KT_NCON), and the strides {...} of each
// output index in A and B (KT_OUT_A, KT_OUT_B; 0 where absent) and of each summed index
// (KT_CON_A, KT_CON_B).
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    contraction_direct(const KT_T* __restrict__ t_in, const KT_T* __restrict__ a, const KT_T* __restrict__ b,
                       KT_T* __restrict__ t_out, long long out_elements) {
  const long long out_a[KT_NOUT] = KT_OUT_A, out_b[KT_NOUT] = KT_OUT_B;
  const long long con_a[KT_NCON] = KT_CON_A, con_b[KT_NCON] = KT_CON_B;
  // The tile's first output: the thread's number in mixed radix, the two coarsened indices
  // counting tiles rather than elements.
  long long rest = (long long)blockIdx.x * KT_BLOCK + threadIdx.x, ao = 0, bo = 0, o0 = 0, stride = 1, d2_stride = 0;
#pragma unroll
  for (int d = 0; d < KT_NOUT; ++d) {
    const int step = d == 0 ? KT_COARSEN : d == KT_D2 ? KT_COARSEN2 : 1;
    const long long digit = rest % (KT_EXTENT / step) * step;
    rest /= KT_EXTENT / step;
    ao += digit * out_a[d];
    bo += digit * out_b[d];
    o0 += digit * stride;
    if (d == KT_D2) d2_stride = stride;
    stride *= KT_EXTENT;
  }
  if (rest > 0 || o0 >= out_elements) return;
  KT_T sum[KT_COARSEN][KT_COARSEN2];
#pragma unroll
  for (int i = 0; i < KT_COARSEN; ++i)
#pragma unroll
    for (int j = 0; j < KT_COARSEN2; ++j) sum[i][j] = 0;
#pragma unroll KT_UNROLL
  for (int c = 0; c < KT_CONTRACTED; ++c) {
    int r = c;
    long long ac = ao, bc = bo;
#pragma unroll
    for (int d = 0; d < KT_NCON; ++d) {
      const int digit = r % KT_EXTENT;
      r /= KT_EXTENT;
      ac += digit * con_a[d];
      bc += digit * con_b[d];
    }
#pragma unroll
    for (int i = 0; i < KT_COARSEN; ++i)
#pragma unroll
      for (int j = 0; j < KT_COARSEN2; ++j)
        sum[i][j] += __ldg(a + ac + i * out_a[0] + j * out_a[KT_D2]) * __ldg(b + bc + i * out_b[0] + j * out_b[KT_D2]);
  }
#pragma unroll
  for (int i = 0; i < KT_COARSEN; ++i)
#pragma unroll
    for (int j = 0; j < KT_COARSEN2; ++j) {
      const long long o = o0 + i + j * d2_stride;
      t_out[o] = KT_SUBTRACT ? t_in[o] - sum[i][j] : t_in[o] + sum[i][j];
    }
}
