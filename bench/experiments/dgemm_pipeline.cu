// What separates ktune's DMMA GEMM (0.68x cuBLAS at 8192^3 f64) from cuBLAS's DGEMM, asked of
// one small kernel with the structure as template parameters, timed beside cublasDgemm in one
// run and checked against it: the CTA and warp tiles, the ring's depth, whether a warp loads the
// next m16n8k8 step's fragments while this one computes (PREFETCH; across a slice's end too),
// and how a lane reads its fragments: 16-byte pairs of k relabelled 2t, 2t + 1 (WIDE, as
// gemm_dmma.cu does; A's two rows then need register moves into the fragment's order) or 8-byte
// loads of k t and t + 4 in the fragment's own order. Layout nt (A m x k, B n x k, both k-major),
// shapes that are multiples of every tile (no bounds). Prints µs, TFLOP/s, the ratio to
// cuBLAS, registers, local memory (spills) and CTAs an SM for each.
// Build: bench/experiments/build-prototype dgemm_pipeline; run: dgemm_pipeline [shapes, 1-3].
#include <cublas_v2.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "bench/experiments/prototype_timing.cuh"
#include "kernels/gemm/gemm_dmma_ops.cuh"

namespace {

constexpr int kGroupRows = 8;  // tile rows a raster group spans (neighbouring CTAs share B's slices)

template <int BM, int BN, int BK, int WM, int WN, int STAGES, bool PREFETCH, bool WIDE>
struct Shape {
  static constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  static constexpr int kMT = WM / 16, kNT = WN / 8, kSteps = BK / 8;
  // Rows of a stage in doubles: 8 (mod 16) for 16-byte loads (a quarter-warp's two rows in the two
  // halves of the banks), 4 (mod 16) for 8-byte ones (a half-warp's four rows in four quarters).
  static constexpr int kLd = WIDE ? BK + 8 - BK % 16 : BK + 4 - BK % 16;
  static constexpr int kAStage = BM * kLd, kBStage = BN * kLd;
  static constexpr size_t kSmem = size_t(STAGES) * (kAStage + kBStage) * sizeof(double);
  static_assert(kSteps % 2 == 0 || !PREFETCH, "two fragment buffers alternate within a slice");
};

__device__ __forceinline__ void cp_async16(double* dst, const double* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int N>
__device__ __forceinline__ void wait_group() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
}

// ROWS x BK of a k-major operand into a stage of rows LD: a thread's chunks lie in one column,
// THREADS / (BK / 2) rows apart, so one address (`from`, the thread's first chunk of this slice)
// and one stride serve them all.
template <int ROWS, int BK, int LD, int THREADS>
__device__ __forceinline__ void copy_slice(double* dst, const double* from, long long stride) {
  constexpr int kPerRow = BK / 2, kChunks = ROWS * kPerRow, kRowsApart = THREADS / kPerRow;
  static_assert(kChunks % THREADS == 0 && THREADS % kPerRow == 0, "every thread copies the same column");
  double* to = dst + threadIdx.x / kPerRow * LD + threadIdx.x % kPerRow * 2;
#pragma unroll
  for (int i = 0; i < kChunks / THREADS; ++i) cp_async16(to + i * kRowsApart * LD, from + i * stride);
}
// The thread's first chunk of slice 0 in an operand of leading dimension ld, and the stride to its next.
template <int BK, int THREADS>
__device__ __forceinline__ const double* first_chunk(const double* src, int ld, int r0) {
  return src + (long long)(r0 + threadIdx.x / (BK / 2)) * ld + threadIdx.x % (BK / 2) * 2;
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, bool PREFETCH, bool WIDE>
__global__ void __launch_bounds__(Shape<BM, BN, BK, WM, WN, STAGES, PREFETCH, WIDE>::kThreads, 1)
    dgemm(const double* __restrict__ a, const double* __restrict__ b, double* __restrict__ c, int m, int n, int k) {
  using S = Shape<BM, BN, BK, WM, WN, STAGES, PREFETCH, WIDE>;
  extern __shared__ __align__(16) double smem[];
  double* sa = smem;
  double* sb = smem + STAGES * S::kAStage;
  const int tiles_n = n / BN, tiles_m = m / BM;
  const int per_group = kGroupRows * tiles_n, group = blockIdx.x / per_group;
  const int first = group * kGroupRows, rows = min(tiles_m - first, kGroupRows), in_group = blockIdx.x % per_group;
  const int row0 = (first + in_group % rows) * BM, col0 = in_group / rows * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int wrow = warp / (BN / WN) * WM, wcol = warp % (BN / WN) * WN;
  // A lane's first double in a stage: its row g and k t (or 2t, WIDE).
  const int a_lane = (wrow + g) * S::kLd + (WIDE ? 2 * t : t), b_lane = (wcol + g) * S::kLd + (WIDE ? 2 * t : t);

  double acc[S::kMT][S::kNT][4];
#pragma unroll
  for (int i = 0; i < S::kMT; ++i)
#pragma unroll
    for (int j = 0; j < S::kNT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.0;
  double fa[2][S::kMT][4], fb[2][S::kNT][2];

  const double* a_from = first_chunk<BK, S::kThreads>(a, k, row0);
  const double* b_from = first_chunk<BK, S::kThreads>(b, k, col0);
  const long long stride = (long long)(S::kThreads / (BK / 2)) * k;
  auto load_stage = [&](int stage, int slice) {
    copy_slice<BM, BK, S::kLd, S::kThreads>(sa + stage * S::kAStage, a_from + slice * BK, stride);
    copy_slice<BN, BK, S::kLd, S::kThreads>(sb + stage * S::kBStage, b_from + slice * BK, stride);
  };
  // A block i's fragment: (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4); B block j's: (g, t), (g, t + 4).
  auto load_fragments = [&](int stage, int kk, int buf) {
    const double* pa = sa + stage * S::kAStage + a_lane + kk;
    const double* pb = sb + stage * S::kBStage + b_lane + kk;
#pragma unroll
    for (int i = 0; i < S::kMT; ++i)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const double* row = pa + (16 * i + 8 * h) * S::kLd;
        if (WIDE) {
          const double2 p = *reinterpret_cast<const double2*>(row);
          fa[buf][i][h] = p.x;
          fa[buf][i][2 + h] = p.y;
        } else {
          fa[buf][i][h] = row[0];
          fa[buf][i][2 + h] = row[4];
        }
      }
#pragma unroll
    for (int j = 0; j < S::kNT; ++j) {
      const double* col = pb + 8 * j * S::kLd;
      if (WIDE) {
        const double2 p = *reinterpret_cast<const double2*>(col);
        fb[buf][j][0] = p.x;
        fb[buf][j][1] = p.y;
      } else {
        fb[buf][j][0] = col[0];
        fb[buf][j][1] = col[4];
      }
    }
  };
  auto products = [&](int buf) {
#pragma unroll
    for (int j = 0; j < S::kNT; ++j)
#pragma unroll
      for (int i = 0; i < S::kMT; ++i) kt_dmma<8>(acc[i][j], fa[buf][i], fb[buf][j]);
  };

  const int slices = k / BK;
#pragma unroll
  for (int st = 0; st < STAGES - 1; ++st) {
    if (st < slices) load_stage(st, st);
    commit();
  }
  int read = 0, write = STAGES - 1;
  if (PREFETCH) {
    wait_group<STAGES - 2>();
    __syncthreads();
    load_fragments(0, 0, 0);
  }
  for (int it = 0; it < slices; ++it) {
    if (!PREFETCH) {
      wait_group<STAGES - 2>();  // slice it has landed, and every warp is done with slice it - 1
      __syncthreads();
    }
    // The stage slice it - 1 used is free: every warp loaded its last fragments before the
    // barrier that let it reach slice it's last step (PREFETCH) or this one.
    if (it + STAGES - 1 < slices) load_stage(write, it + STAGES - 1);
    commit();
    write = write + 1 == STAGES ? 0 : write + 1;
#pragma unroll
    for (int ks = 0; ks < S::kSteps; ++ks) {
      if (PREFETCH) {
        const int buf = ks % 2;
        if (ks + 1 < S::kSteps) {
          load_fragments(read, (ks + 1) * 8, buf ^ 1);
        } else if (it + 1 < slices) {
          wait_group<STAGES - 2>();  // slice it + 1 has landed
          __syncthreads();
          load_fragments(read + 1 == STAGES ? 0 : read + 1, 0, buf ^ 1);
        }
        products(buf);
      } else {
        load_fragments(read, ks * 8, 0);
        products(0);
      }
    }
    read = read + 1 == STAGES ? 0 : read + 1;
  }
  wait_group<0>();
#pragma unroll
  for (int i = 0; i < S::kMT; ++i)
#pragma unroll
    for (int j = 0; j < S::kNT; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + wrow + 16 * i + 8 * h + g, col = col0 + wcol + 8 * j + 2 * t;
        *reinterpret_cast<double2*>(c + (size_t)row * n + col) = make_double2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
      }
}

struct Problem {
  int m, n, k;
  double *a, *b, *c, *reference;
};

// The largest difference from cuBLAS's C over C's largest magnitude.
double max_relative_error(const Problem& p) {
  std::vector<double> got((size_t)p.m * p.n), want(got.size());
  CHECK(cudaMemcpy(got.data(), p.c, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(want.data(), p.reference, want.size() * sizeof(double), cudaMemcpyDeviceToHost));
  double worst = 0, scale = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, std::fabs(got[i] - want[i]));
    scale = std::max(scale, std::fabs(want[i]));
  }
  return worst / scale;
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, bool PREFETCH, bool WIDE>
void run(const char* name, Problem& p, Timer& timer, double cublas_us) {
  using S = Shape<BM, BN, BK, WM, WN, STAGES, PREFETCH, WIDE>;
  auto kernel = dgemm<BM, BN, BK, WM, WN, STAGES, PREFETCH, WIDE>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)S::kSmem));
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, kernel));
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, S::kThreads, S::kSmem));
  const int grid = (p.m / BM) * (p.n / BN);
  CHECK(cudaMemset(p.c, 0, (size_t)p.m * p.n * sizeof(double)));
  const double us = timer.median_us([&] { kernel<<<grid, S::kThreads, S::kSmem>>>(p.a, p.b, p.c, p.m, p.n, p.k); });
  const double tflops = 2.0 * p.m * p.n * p.k / (us * 1e-6) / 1e12;
  printf("| %d x %d x %d | %s | %d x %d x %d, warp %d x %d, %d stages | %.1f | %.1f | %.3fx | %d | %zu | %d | %.1e |\n",
         p.m, p.n, p.k, name, BM, BN, BK, WM, WN, STAGES, us, tflops, cublas_us / us, attributes.numRegs,
         (size_t)attributes.localSizeBytes, resident, max_relative_error(p));
}

__global__ void fill(double* x, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    x[i] = (double)(h % 2001) / 1000.0 - 1.0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("%s, %d SMs\n\n", prop.name, prop.multiProcessorCount);
  printf("| shape | variant | tile | µs | TFLOP/s | vs cuBLAS | registers | local bytes | CTAs an SM | error vs cuBLAS |\n");
  printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  Timer timer;
  const int sizes[][3] = {{8192, 8192, 8192}, {4096, 4096, 4096}, {2048, 2048, 2048}};
  const int count = argc > 1 ? atoi(argv[1]) : 3;
  for (int s = 0; s < count; ++s) {
    Problem p{sizes[s][0], sizes[s][1], sizes[s][2]};
    const size_t a_count = (size_t)p.m * p.k, b_count = (size_t)p.n * p.k, c_count = (size_t)p.m * p.n;
    CHECK(cudaMalloc(&p.a, a_count * sizeof(double)));
    CHECK(cudaMalloc(&p.b, b_count * sizeof(double)));
    CHECK(cudaMalloc(&p.c, c_count * sizeof(double)));
    CHECK(cudaMalloc(&p.reference, c_count * sizeof(double)));
    fill<<<1024, 256>>>(p.a, a_count, 1);
    fill<<<1024, 256>>>(p.b, b_count, 2);
    // Row-major C = A B^T is column-major C^T = B A^T: B's n x k rows are a column-major k x n
    // matrix taken transposed, A's a column-major k x m taken as it is.
    const double one = 1.0, zero = 0.0;
    auto cublas = [&] {
      cublasDgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, p.n, p.m, p.k, &one, p.b, p.k, p.a, p.k, &zero, p.reference, p.n);
    };
    const double cublas_us = timer.median_us(cublas);
    printf("| %d x %d x %d | cublasDgemm | | %.1f | %.1f | 1.000x | | | | |\n", p.m, p.n, p.k, cublas_us,
           2.0 * p.m * p.n * p.k / (cublas_us * 1e-6) / 1e12);
    run<64, 128, 16, 32, 64, 3, false, true>("as gemm_dmma.cu (16-byte pairs, no prefetch)", p, timer, cublas_us);
    run<64, 128, 16, 32, 64, 3, false, false>("8-byte loads, no prefetch", p, timer, cublas_us);
    run<64, 128, 16, 32, 64, 3, true, true>("16-byte pairs, prefetch", p, timer, cublas_us);
    run<64, 128, 16, 32, 64, 3, true, false>("8-byte loads, prefetch", p, timer, cublas_us);
    run<64, 128, 32, 32, 64, 2, true, false>("8-byte loads, prefetch", p, timer, cublas_us);
    run<128, 128, 16, 32, 64, 3, true, false>("8-byte loads, prefetch", p, timer, cublas_us);
    run<128, 128, 32, 32, 64, 2, true, false>("8-byte loads, prefetch", p, timer, cublas_us);
    run<128, 64, 16, 64, 32, 3, true, false>("8-byte loads, prefetch", p, timer, cublas_us);
    run<64, 64, 16, 32, 32, 4, true, false>("8-byte loads, prefetch", p, timer, cublas_us);
    run<128, 128, 16, 64, 32, 3, true, false>("8-byte loads, prefetch", p, timer, cublas_us);
    CHECK(cudaFree(p.a));
    CHECK(cudaFree(p.b));
    CHECK(cudaFree(p.c));
    CHECK(cudaFree(p.reference));
  }
  cublasDestroy(handle);
  return 0;
}
