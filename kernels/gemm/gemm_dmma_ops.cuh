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

// The m16n8k8 step of gemm_dmma.cu in its precision: f64's DMMA, or tf32's on f32 inputs, whose
// fragments lie alike (A (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4); B (t, g), (t + 4, g);
// D rows g and g + 8, columns 2t and 2t + 1). The tensor cores read an f32's top 19 bits as tf32.
__device__ __forceinline__ void kt_mma_k8(double* d, const double* a, const double* b) { kt_dmma<8>(d, a, b); }
__device__ __forceinline__ void kt_mma_k8(float* d, const float* a, const float* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])),
                 "r"(__float_as_uint(a[3])), "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
}
