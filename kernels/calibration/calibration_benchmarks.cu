// Microbenchmarks that calibrate the emulator's resource table (model/calibration/, digest-000
// §2.2). Each kernel takes a length `n`; the host times it at two lengths, and the slope of time
// over work removes the launch and set-up costs. Latency kernels run one warp (or one thread)
// through a chain of dependent operations; gap ("stream") kernels run enough warps with enough
// independent chains on every SM to saturate one unit.
//
// A chain's result is written to out[0] only if its bits equal `key`, a value the host picks so
// that no chain reaches it: the compiler must keep the chain, and out[0] is always 0, which is
// what the measurement harness verifies before it times.
#define KT_STEPS 16  // operations per loop iteration, unrolled
#define KT_ILP 8     // independent chains per thread in the stream kernels
#define KT_LOADS 8   // independent 16-byte loads per thread per iteration in memory streams
#define KT_BLOCK 256 // block size the memory streams are written for (their immediate offsets)

__device__ __forceinline__ void kt_sink(float* out, unsigned bits, unsigned key) {
  if (bits == key) out[0] = 1.0f;
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = 0.0f;
}

// One MUFU operation per step: the .ftz form maps to a single MUFU.RSQ (no denormal fix-up),
// and rsqrt(rsqrt(x)) stays finite (it tends to 1).
__device__ __forceinline__ float kt_rsqrt(float x) {
  float y;
  asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// ---- latency: one warp, dependent chains ----------------------------------------------------

// Two integer operations per step (LOP3 then IADD3); neither folds into the other.
extern "C" __global__ void kt_int_chain(float* out, int n, unsigned a, unsigned b, unsigned key) {
  unsigned x = threadIdx.x;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) x = (x ^ a) + b;
  }
  kt_sink(out, x, key);
}

extern "C" __global__ void kt_fp32_chain(float* out, int n, float a, float b, unsigned key) {
  float x = threadIdx.x * 1e-3f;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) x = fmaf(x, a, b);
  }
  kt_sink(out, __float_as_uint(x), key);
}

extern "C" __global__ void kt_fp64_chain(float* out, int n, double a, double b, unsigned key) {
  double x = threadIdx.x * 1e-3;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) x = fma(x, a, b);
  }
  kt_sink(out, static_cast<unsigned>(__double_as_longlong(x)), key);
}

extern "C" __global__ void kt_sfu_chain(float* out, int n, unsigned key) {
  float x = 1.0f + threadIdx.x;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) x = kt_rsqrt(x);
  }
  kt_sink(out, __float_as_uint(x), key);
}

// `lane_mask` is 1 at run time; the compiler cannot cancel two shuffles it does not know.
extern "C" __global__ void kt_shuffle_chain(float* out, int n, int lane_mask, unsigned key) {
  unsigned x = threadIdx.x;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) x = __shfl_xor_sync(0xffffffffu, x, lane_mask);
  }
  kt_sink(out, x, key);
}

// Shared words hold byte offsets, so a step is one LDS with no address arithmetic; each lane
// walks the words of its own bank (32 words apart), so every load is one wavefront.
extern "C" __global__ void kt_shared_chain(float* out, int n, unsigned key) {
  __shared__ unsigned words[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) words[i] = ((i + 32) % 1024) * 4u;
  __syncthreads();
  unsigned offset = threadIdx.x * 4u;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) offset = *reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(words) + offset);
  }
  kt_sink(out, offset, key);
}

// One thread: each atomic's address depends on the previous atomic's result (`zero` is 0 at
// run time), so they cannot overlap.
extern "C" __global__ void kt_atomic_chain(float* out, unsigned* cell, int n, unsigned zero, unsigned key) {
  unsigned v = 0;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) v = atomicAdd(cell + (v & zero), 1u);
  }
  kt_sink(out, v, key);
}

extern "C" __global__ void kt_barrier_chain(float* out, int n, unsigned key) {
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) __syncthreads();
  }
  kt_sink(out, static_cast<unsigned>(n), key);
}

// A loop of nothing: per iteration a counter add, a compare and a taken branch. The counter
// depends on threadIdx (`zero` is 0), which keeps it off the uniform datapath.
extern "C" __global__ void kt_branch_loop(float* out, int n, int zero, unsigned key) {
  int i = static_cast<int>(threadIdx.x) & zero;
  const int limit = n + (static_cast<int>(threadIdx.x) & zero);
#pragma unroll 1
  for (; i < limit; ++i) asm volatile("");
  kt_sink(out, static_cast<unsigned>(i), key);
}

// Spins for `cycles` SM clock cycles: timed at two lengths it gives the SM clock under load.
extern "C" __global__ void kt_clock_spin(float* out, long long cycles, unsigned key) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  kt_sink(out, static_cast<unsigned>(now - start - cycles), key);
}

// ---- gap: every SM, many warps, independent chains --------------------------------------------

extern "C" __global__ void kt_int_stream(float* out, int n, unsigned a, unsigned b, unsigned key) {
  unsigned x[KT_ILP];
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) x[k] = threadIdx.x + k;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS / KT_ILP * 2; ++s)
#pragma unroll
      for (int k = 0; k < KT_ILP; ++k) x[k] = (x[k] ^ a) + b;
  }
  unsigned all = 0;
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) all ^= x[k];
  kt_sink(out, all, key);
}

// Every bit of a result reaches kt_sink, so that no part of the work is dead code.
__device__ __forceinline__ unsigned kt_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned kt_bits(double x) {
  const unsigned long long b = static_cast<unsigned long long>(__double_as_longlong(x));
  return static_cast<unsigned>(b) ^ static_cast<unsigned>(b >> 32);
}

// KT_ILP independent FMA chains per thread; T is float or double (FFMA or DFMA).
template <typename T>
__device__ __forceinline__ void kt_fma_stream(float* out, int n, T a, T b, unsigned key) {
  T x[KT_ILP];
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) x[k] = static_cast<T>(threadIdx.x) * static_cast<T>(1e-3) + static_cast<T>(k);
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS / KT_ILP * 2; ++s)
#pragma unroll
      for (int k = 0; k < KT_ILP; ++k) x[k] = fma(x[k], a, b);
  }
  T sum = 0;
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) sum += x[k];
  kt_sink(out, kt_bits(sum), key);
}

extern "C" __global__ void kt_fp32_stream(float* out, int n, float a, float b, unsigned key) {
  kt_fma_stream<float>(out, n, a, b, key);
}

extern "C" __global__ void kt_fp64_stream(float* out, int n, double a, double b, unsigned key) {
  kt_fma_stream<double>(out, n, a, b, key);
}

extern "C" __global__ void kt_sfu_stream(float* out, int n, unsigned key) {
  float x[KT_ILP];
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) x[k] = 1.0f + threadIdx.x + k;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS / KT_ILP * 2; ++s)
#pragma unroll
      for (int k = 0; k < KT_ILP; ++k) x[k] = kt_rsqrt(x[k]);
  }
  float all = 0;
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) all += x[k];
  kt_sink(out, __float_as_uint(all), key);
}

extern "C" __global__ void kt_shuffle_stream(float* out, int n, int lane_mask, unsigned key) {
  unsigned x[KT_ILP];
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) x[k] = threadIdx.x + k;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS / KT_ILP * 2; ++s)
#pragma unroll
      for (int k = 0; k < KT_ILP; ++k) x[k] = __shfl_xor_sync(0xffffffffu, x[k], lane_mask);
  }
  unsigned all = 0;
#pragma unroll
  for (int k = 0; k < KT_ILP; ++k) all ^= x[k];
  kt_sink(out, all, key);
}

// Per step 6 FP32 chains (FMA pipe) and one integer chain of two operations (ALU pipe): 8
// instructions that no single pipe can hold back, so the rate is the schedulers' issue rate.
extern "C" __global__ void kt_issue_stream(float* out, int n, float a, float b, unsigned c, unsigned d, unsigned key) {
  float x[6];
#pragma unroll
  for (int k = 0; k < 6; ++k) x[k] = threadIdx.x * 1e-3f + k;
  unsigned y = threadIdx.x;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < 4; ++s) {
#pragma unroll
      for (int k = 0; k < 6; ++k) x[k] = fmaf(x[k], a, b);
      y = (y ^ c) + d;
    }
  }
  float all = 0;
#pragma unroll
  for (int k = 0; k < 6; ++k) all += x[k];
  kt_sink(out, __float_as_uint(all) ^ y, key);
}

// Volatile: the same words are read every iteration and must not be hoisted out of the loop.
// Lane l reads bank l: one wavefront per load.
extern "C" __global__ void kt_shared_stream(float* out, int n, unsigned key) {
  __shared__ unsigned words[KT_STEPS * 32];
  for (int i = threadIdx.x; i < KT_STEPS * 32; i += blockDim.x) words[i] = i;
  __syncthreads();
  const volatile unsigned* mine = words + (threadIdx.x & 31);
  unsigned all = 0;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) all += mine[s * 32];
  }
  kt_sink(out, all, key);
}

extern "C" __global__ void kt_barrier_stream(float* out, int n, unsigned key) {
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) __syncthreads();
  }
  kt_sink(out, static_cast<unsigned>(n), key);
}

// Each thread adds to its own words, 32 bytes apart (every lane's atomic is its own sector),
// rotating over 4 slots so that one address is not hit back to back.
extern "C" __global__ void kt_atomic_stream(float* out, unsigned* cells, int n, unsigned key) {
  const unsigned threads = gridDim.x * blockDim.x;
  unsigned* mine = cells + (blockIdx.x * blockDim.x + threadIdx.x) * 8u;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) atomicAdd(mine + (s & 3) * threads * 8u, 1u);
  }
  kt_sink(out, static_cast<unsigned>(n), key);
}

// Every thread of the grid adds to one word: the device-wide rate of same-address atomics.
extern "C" __global__ void kt_atomic_same_stream(float* out, unsigned* cell, int n, unsigned key) {
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) atomicAdd(cell, 1u);
  }
  kt_sink(out, static_cast<unsigned>(n), key);
}

// ---- block dispatch -----------------------------------------------------------------------------

// One warp per block that does nothing: launches of n and 2n such blocks differ by how fast the
// block scheduler hands out n blocks.
extern "C" __global__ void kt_empty_blocks(float* out, int n, unsigned key) {
  kt_sink(out, static_cast<unsigned>(n), key);
}

// ---- memory: pointer chasing for latency, streaming reads for gap ------------------------------

// Line i of `cells` (a line is `stride_words` 8-byte words) points to line (mult * i + 1) mod
// lines. With `lines` a power of two and mult = 1 (mod 4) this is one cycle through every line
// (Hull-Dobell), in an order that jumps across the whole working set.
extern "C" __global__ void kt_chase_init(unsigned long long* cells, unsigned long long lines,
                                         unsigned long long stride_words, unsigned long long mult) {
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < lines;
       i += static_cast<unsigned long long>(gridDim.x) * blockDim.x) {
    const unsigned long long next = (mult * i + 1) & (lines - 1);
    cells[i * stride_words] = reinterpret_cast<unsigned long long>(cells + next * stride_words);
  }
}

// One thread follows the chain through L1 (ld.global.ca; a plain load of a pointer read from
// memory would be a generic ld).
extern "C" __global__ void kt_chase_l1(float* out, const unsigned long long* cells, int n, unsigned key) {
  const unsigned long long* p = cells;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) p = reinterpret_cast<const unsigned long long*>(__ldca(p));
  }
  kt_sink(out, static_cast<unsigned>(reinterpret_cast<unsigned long long>(p)), key);
}

// The same through L2 only (ld.global.cg): the L2 and DRAM chases.
extern "C" __global__ void kt_chase_cg(float* out, const unsigned long long* cells, int n, unsigned key) {
  const unsigned long long* p = cells;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int s = 0; s < KT_STEPS; ++s) p = reinterpret_cast<const unsigned long long*>(__ldcg(p));
  }
  kt_sink(out, static_cast<unsigned>(reinterpret_cast<unsigned long long>(p)), key);
}

// Streaming reads of 16 bytes per lane, KT_LOADS independent loads per iteration; iteration i
// of a block reads chunk (i * gridDim.x + blockIdx.x) of KT_LOADS * KT_BLOCK * 16 bytes, wrapped
// by `chunk_mask` (chunks in the working set, minus one).
template <int Mode>
__device__ __forceinline__ uint4 kt_load(const uint4* p) {
  return Mode == 0 ? __ldca(p) : Mode == 1 ? __ldcg(p) : __ldcs(p);
}

template <int Mode>
__device__ __forceinline__ void kt_read_stream(float* out, const uint4* data, int n, unsigned chunk_mask, unsigned key) {
  unsigned all = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned chunk = (static_cast<unsigned>(i) * gridDim.x + blockIdx.x) & chunk_mask;
    const uint4* p = data + static_cast<size_t>(chunk) * (KT_LOADS * KT_BLOCK) + threadIdx.x;
    uint4 v[KT_LOADS];
#pragma unroll
    for (int s = 0; s < KT_LOADS; ++s) v[s] = kt_load<Mode>(p + s * KT_BLOCK);
#pragma unroll
    for (int s = 0; s < KT_LOADS; ++s) all ^= v[s].x ^ v[s].y ^ v[s].z ^ v[s].w;
  }
  kt_sink(out, all, key);
}

// A working set that fits L1, read through L1 (ld.global.ca).
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    kt_read_l1(float* out, const uint4* data, int n, unsigned chunk_mask, unsigned key) {
  kt_read_stream<0>(out, data, n, chunk_mask, key);
}

// A working set that fits L2, read past L1 (ld.global.cg).
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    kt_read_l2(float* out, const uint4* data, int n, unsigned chunk_mask, unsigned key) {
  kt_read_stream<1>(out, data, n, chunk_mask, key);
}

// Every byte read once, evict-first (ld.global.cs): device memory bandwidth.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    kt_read_dram(float* out, const uint4* data, int n, unsigned chunk_mask, unsigned key) {
  kt_read_stream<2>(out, data, n, chunk_mask, key);
}

// Gathers: KT_LOADS independent 4-byte loads per thread per iteration, each warp access spread
// over 32 >> lane_shift distinct 128-byte lines of a working set of `line_mask + 1` lines (a
// power of two, at least 32), 1 << lane_shift lanes per line on distinct sectors; 32 sectors
// per warp access either way. The warp's line base walks an LCG, so consecutive accesses land
// far apart. Against the streams above (16 sectors in 4 lines per access) this separates what a
// level costs per line requested from what it costs per sector moved.
template <int Mode>
__device__ __forceinline__ void kt_gather(float* out, const unsigned* data, int n, unsigned line_mask, int lane_shift,
                                          unsigned key) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned line_of_lane = (lane >> lane_shift) * 33u;  // odd multiplier: distinct lines
  const unsigned word_in_line = (lane & 3u) * 8u;            // sector (lane mod 4) of its line
  unsigned base = (blockIdx.x * blockDim.x + threadIdx.x) / 32u * 0x9E3779B9u;
  unsigned all = 0;
  for (int i = 0; i < n; ++i) {
    unsigned v[KT_LOADS];
#pragma unroll
    for (int s = 0; s < KT_LOADS; ++s) {
      base = base * 1664525u + 1013904223u;
      const unsigned* p = data + static_cast<size_t>((base + line_of_lane) & line_mask) * 32u + word_in_line;
      v[s] = Mode == 0 ? __ldca(p) : __ldcg(p);
    }
#pragma unroll
    for (int s = 0; s < KT_LOADS; ++s) all ^= v[s];
  }
  kt_sink(out, all, key);
}

// Through L1 (ld.global.ca): a working set that fits L1, or a larger one whose misses go on.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    kt_gather_ca(float* out, const unsigned* data, int n, unsigned line_mask, int lane_shift, unsigned key) {
  kt_gather<0>(out, data, n, line_mask, lane_shift, key);
}

// Past L1 (ld.global.cg): L2, or device memory for a working set many times L2.
extern "C" __global__ void __launch_bounds__(KT_BLOCK)
    kt_gather_cg(float* out, const unsigned* data, int n, unsigned line_mask, int lane_shift, unsigned key) {
  kt_gather<1>(out, data, n, line_mask, lane_shift, key);
}
