// A tensor contraction, thread per COARSEN consecutive output elements (they differ only in the
// output's fastest index, so the operand without that index is loaded once for all of them):
// the summed indices walked in order, UNROLL at a time. Parameters (-D): KT_T, KT_BLOCK,
// KT_COARSEN, KT_UNROLL, KT_SUBTRACT (1: out = in - A·B), KT_EXTENT, KT_NOUT, KT_NCON, and the
// strides {...} of each output index in A and B (KT_OUT_A, KT_OUT_B; 0 where absent) and of each
// summed index (KT_CON_A, KT_CON_B); KT_CONTRACTED = KT_EXTENT^KT_NCON.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    contraction_direct(const KT_T* __restrict__ t_in, const KT_T* __restrict__ a, const KT_T* __restrict__ b,
                       KT_T* __restrict__ t_out, long long out_elements) {
  const long long out_a[KT_NOUT] = KT_OUT_A, out_b[KT_NOUT] = KT_OUT_B;
  const long long con_a[KT_NCON] = KT_CON_A, con_b[KT_NCON] = KT_CON_B;
  const long long o0 = ((long long)blockIdx.x * KT_BLOCK + threadIdx.x) * KT_COARSEN;
  if (o0 >= out_elements) return;
  long long rest = o0, ao = 0, bo = 0;
#pragma unroll
  for (int d = 0; d < KT_NOUT; ++d) {
    const long long digit = rest % KT_EXTENT;
    rest /= KT_EXTENT;
    ao += digit * out_a[d];
    bo += digit * out_b[d];
  }
  KT_T sum[KT_COARSEN];
#pragma unroll
  for (int j = 0; j < KT_COARSEN; ++j) sum[j] = 0;
#pragma unroll KT_UNROLL
  for (int c = 0; c < KT_CONTRACTED; ++c) {
    int r = c;
    long long ac = 0, bc = 0;
#pragma unroll
    for (int d = 0; d < KT_NCON; ++d) {
      const int digit = r % KT_EXTENT;
      r /= KT_EXTENT;
      ac += digit * con_a[d];
      bc += digit * con_b[d];
    }
#pragma unroll
    for (int j = 0; j < KT_COARSEN; ++j)
      sum[j] += __ldg(a + ao + ac + j * out_a[0]) * __ldg(b + bo + bc + j * out_b[0]);
  }
#pragma unroll
  for (int j = 0; j < KT_COARSEN; ++j)
    t_out[o0 + j] = KT_SUBTRACT ? t_in[o0 + j] - sum[j] : t_in[o0 + j] + sum[j];
}
