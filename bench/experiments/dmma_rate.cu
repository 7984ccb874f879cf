// The f64 tensor cores' rate by mma.sync shape on sm_90: m8n8k4 (sm_80's DMMA) against
// m16n8k4, m16n8k8 and m16n8k16 (sm_90 only), each warp running CHAINS independent
// accumulators from registers alone, so that only the instruction's throughput counts.
// Prints TFLOP/s per shape and warps per SM. Build: bench/experiments/build-prototype dmma_rate
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "kernels/gemm/gemm_dmma_ops.cuh"

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

constexpr int kChains = 8;
constexpr int kIterations = 4096;

// SHAPE: 0 m8n8k4, 1 m16n8k4, 2 m16n8k8, 3 m16n8k16 (the last two as the GEMM kernel issues them).
template <int SHAPE>
__device__ __forceinline__ void mma(double (&d)[4], const double (&a)[8], const double (&b)[4]) {
  if constexpr (SHAPE == 0)
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(d[0]), "+d"(d[1])
                 : "d"(a[0]), "d"(b[0]));
  else if constexpr (SHAPE == 1)
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(b[0]));
  else
    kt_dmma<SHAPE == 2 ? 8 : 16>(d, a, b);
}

template <int SHAPE>
__global__ void rate(double* out, double seed) {
  double a[8], b[4], d[kChains][4];
  for (int i = 0; i < 8; ++i) a[i] = seed * (threadIdx.x + i);
  for (int i = 0; i < 4; ++i) b[i] = seed * (blockIdx.x + i);
  for (int c = 0; c < kChains; ++c)
    for (int i = 0; i < 4; ++i) d[c][i] = 0;
  for (int it = 0; it < kIterations; ++it)
#pragma unroll
    for (int c = 0; c < kChains; ++c) mma<SHAPE>(d[c], a, b);
  double sum = 0;
  for (int c = 0; c < kChains; ++c)
    for (int i = 0; i < 4; ++i) sum += d[c][i];
  if (sum == 1.2345) out[0] = sum;  // keeps the products live
}

template <int SHAPE>
int measure(const char* name, double macs_per_instruction, int sms, double* out) {
  for (int warps : {4, 8, 16}) {
    std::vector<float> times;
    for (int rep = 0; rep < 7; ++rep) {
      cudaEvent_t start, stop;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));
      CHECK(cudaEventRecord(start));
      rate<SHAPE><<<sms, warps * 32>>>(out, 1e-9);
      if (cudaGetLastError() != cudaSuccess) {  // too many registers for this many threads
        printf("%-9s warps/SM %2d: does not launch\n", name, warps);
        return 0;
      }
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      times.push_back(ms);
      CHECK(cudaEventDestroy(start));
      CHECK(cudaEventDestroy(stop));
    }
    std::sort(times.begin(), times.end());
    const double flops = 2.0 * macs_per_instruction * kChains * kIterations * warps * sms;
    printf("%-9s warps/SM %2d: %7.3f ms, %6.1f TFLOP/s\n", name, warps, times[3], flops / (times[3] * 1e-3) / 1e12);
  }
  return 0;
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  double* out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(double)));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("%s, %d SMs\n", prop.name, sms);
  if (measure<0>("m8n8k4", 8 * 8 * 4, sms, out) || measure<1>("m16n8k4", 16 * 8 * 4, sms, out) ||
      measure<2>("m16n8k8", 16 * 8 * 8, sms, out) || measure<3>("m16n8k16", 16 * 8 * 16, sms, out))
    return 1;
  return 0;
}
