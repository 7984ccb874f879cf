// sm_90's f64 mma.sync steps on a lane's fragments, accumulating into d: m16n8k8 (A 4 doubles,
// B 2) and m16n8k16 (A 8, B 4), d 4 doubles of a 16 x 8 block. Shared by the DMMA GEMM
// (gemm_dmma.cu) and the rate probe (bench/experiments/dmma_rate.cu); needs no -D parameter.
template <int SHAPE_K>
__device__ __forceinline__ void kt_dmma(double* d, const double* a, const double* b);
template <>
__device__ __forceinline__ void kt_dmma<8>(double* d, const double* a, const double* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}
template <>
__device__ __forceinline__ void kt_dmma<16>(double* d, const double* a, const double* b) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
      "{%12,%13,%14,%15}, {%0,%1,%2,%3};"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
        "d"(b[1]), "d"(b[2]), "d"(b[3]));
}
