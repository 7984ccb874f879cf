// Fixed split-K's sum (gemm_schedule.h): `split` partial copies of C, each `elements` long, one
// after another in `parts`, added element by element into C. Every SM shares the sum, where
// Stream-K's fix-up has the last CTA of a tile read its peers' partials one after another.
// A grid-stride loop: any grid covers C.
extern "C" __global__ void __launch_bounds__(256)
    gemm_split_reduce(const KT_ACC* __restrict__ parts, KT_ACC* __restrict__ c, long long elements, int split) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < elements;
       i += (long long)gridDim.x * blockDim.x) {
    KT_ACC sum = 0;
#pragma unroll 4
    for (int p = 0; p < split; ++p) sum += __ldcg(parts + p * elements + i);
    c[i] = sum;
  }
}
