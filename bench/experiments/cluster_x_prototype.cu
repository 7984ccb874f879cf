// Experiment (issue 3): the x of a power-law graph's hot columns spread over the shared memory
// of a thread-block cluster (Hopper's distributed shared memory), so that far more of x is on
// chip than one SM's L1 holds. R-MAT 22's 32768 longest columns hold ~50% of its gathers, the
// 300 K longest ~87%: 1.2 MB of fp32 x, which eight SMs' shared memory holds together. A gather
// of a hot column then reads the owning block's shared memory (ld.shared::cluster) instead of
// making an L2 tag request, the resource that bounds these kernels (results/ncu_l2_tags_h200.md).
//
// One persistent kernel, three ways to read a hot column, measured side by side with cuSPARSE:
//   plain   every column through __ldg (the adaptive schedule's gathers);
//   global  hot columns from a dense x_hot through L1 (adaptive_hot);
//   cluster hot columns from the shared memory of the cluster block that owns them.
// Every warp walks its own CSR-Adaptive row blocks (tiles of 32 x Items nonzeros), so no block
// barrier stalls the warps between tiles. Timing: L2 flushed, CUDA events, medians; the x_hot
// gather launch and the zeroing of y (sliced rows add into it) are inside the timed region.
// Every result is checked against the CPU twin (spmv_reference) with the harness's tolerance
// (gpu/measure_verification.h) before it is timed.
//
// Build (from the repository root, after building `build/`):
//   bench/experiments/build-prototype cluster_x_prototype
#include <cooperative_groups.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/experiments/prototype_harness.cuh"
#include "kernels/spmv/spmv_adaptive_partition.h"
#include "kernels/spmv/spmv_hot_columns.h"
#include "kernels/spmv/spmv_reference.h"
#include "workload/generators.h"

namespace cg = cooperative_groups;

enum Mode { kPlain = 0, kGlobalHot = 1, kClusterHot = 2, kLocalHot = 3 };
const char* kModeName[] = {"plain", "global", "cluster", "local"};
// A cluster-hot column is stored as ~(offset << kRankBits | rank): up to 16 blocks per cluster.
constexpr int kRankBits = 4;

template <typename T, int M>
__device__ __forceinline__ T x_at(int col, const T* __restrict__ x, const T* __restrict__ x_hot,
                                  T* hot, const cg::cluster_group& cluster) {
  if (M == kPlain || col >= 0) return __ldg(x + col);
  const int v = ~col;
  if (M == kGlobalHot) return __ldg(x_hot + v);
  if (M == kLocalHot) return hot[v];
  return cluster.map_shared_rank(hot, v & ((1 << kRankBits) - 1))[v >> kRankBits];
}

template <typename T>
__device__ __forceinline__ T warp_sum(T sum, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset, width);
  }
  return sum;
}

template <typename T, int Items, int M>
__global__ void __launch_bounds__(1024, 1)
    spmv_warp_tiles(const int2* __restrict__ row_blocks, int n_row_blocks,
                    const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                    const T* __restrict__ values, const T* __restrict__ x,
                    const T* __restrict__ x_hot, int slots, T* __restrict__ y) {
  constexpr int kTile = 32 * Items;
  extern __shared__ __align__(16) unsigned char smem[];
  const int warps = blockDim.x / 32;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  T* products = reinterpret_cast<T*>(smem) + warp * kTile;
  T* hot = reinterpret_cast<T*>(smem) + warps * kTile;
  cg::cluster_group cluster = cg::this_cluster();
  if (M == kClusterHot) {
    const T* mine = x_hot + static_cast<size_t>(cluster.block_rank()) * slots;
    for (int s = threadIdx.x; s < slots; s += blockDim.x) hot[s] = mine[s];
    cluster.sync();
  }
  if (M == kLocalHot) {
    for (int s = threadIdx.x; s < slots; s += blockDim.x) hot[s] = x_hot[s];
    __syncthreads();
  }
  const int total_warps = gridDim.x * warps;
  for (int rb = blockIdx.x * warps + warp; rb < n_row_blocks; rb += total_warps) {
    const int2 from = row_blocks[rb];
    const int2 to = row_blocks[rb + 1];
    const bool slice = from.x < 0;
    const int first_row = slice ? ~from.x : from.x;
    const int rows = (to.x < 0 ? ~to.x : to.x) - first_row;
    const int first_nz = from.y;
    const int tile_nnz = to.y - first_nz;
    if (slice || rows == 1) {
      T sum = 0;
      for (int i = first_nz + lane; i < to.y; i += 32) {
        sum += __ldcs(values + i) * x_at<T, M>(__ldcs(col_idx + i), x, x_hot, hot, cluster);
      }
      sum = warp_sum(sum, 32);
      if (lane == 0) {
        if (slice) {
          atomicAdd(y + first_row, sum);
        } else {
          y[first_row] = sum;
        }
      }
      continue;
    }
    if (tile_nnz > 0) {
      int col[Items];
      T value[Items];
#pragma unroll
      for (int k = 0; k < Items; ++k) {
        const int nz = first_nz + min(lane + k * 32, tile_nnz - 1);
        col[k] = __ldcs(col_idx + nz);
        value[k] = __ldcs(values + nz);
      }
#pragma unroll
      for (int k = 0; k < Items; ++k) {
        const int i = lane + k * 32;
        const T product = value[k] * x_at<T, M>(col[k], x, x_hot, hot, cluster);
        products[i] = i < tile_nnz ? product : T(0);
      }
    }
    __syncwarp();
    const int width = rows >= 32 ? 1 : 1 << (31 - __clz(32 / rows));
    for (int pass = 0; pass < rows; pass += 32 / width) {
      const int row = pass + lane / width;
      const int sub = lane % width;
      T sum = 0;
      if (row < rows) {
        const int end = row_ptr[first_row + row + 1] - first_nz;
        for (int i = row_ptr[first_row + row] - first_nz + sub; i < end; i += width) {
          sum += products[i];
        }
      }
      sum = warp_sum(sum, width);
      if (row < rows && sub == 0) y[first_row + row] = sum;
    }
    __syncwarp();
  }
  if (M == kClusterHot) cluster.sync();  // no block leaves while others read its shared memory
}

template <typename T>
__global__ void gather_hot(int n, const int* __restrict__ cols, const T* __restrict__ x,
                           T* __restrict__ x_hot) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) x_hot[j] = cols[j] < 0 ? T(0) : __ldg(x + cols[j]);
}

// The prototype's kernels for one way of reading hot columns, at 2, 4 and 8 items per thread.
struct Kernel {
  int items, mode;
  void* fn;
};

template <typename T, int M>
void add_kernels(std::vector<Kernel>& kernels) {
  kernels.push_back({2, M, (void*)spmv_warp_tiles<T, 2, M>});
  kernels.push_back({4, M, (void*)spmv_warp_tiles<T, 4, M>});
  kernels.push_back({8, M, (void*)spmv_warp_tiles<T, 8, M>});
}

struct Args : CommonArgs {
  bool quick = false;
  bool relabel = false;
  int mode = -1, items = 0, block = 0, cluster = 0, kib = -1;  // filters, for ncu
};

template <typename T>
void run(const Args& args) {
  const char* dtype = sizeof(T) == 4 ? "f32" : "f64";
  RmatCase<T> rmat(args.scale, args.edge_factor);
  const ktune::CsrF64& a = rmat.a;
  int* d_col_hot = nullptr;
  CHECK(cudaMalloc(&d_col_hot, a.nnz() * sizeof(int)));
  Timer timer;
  const double best_vendor = cusparse_best_us(rmat, timer, args.reps);

  // --relabel: the columns renumbered by decreasing length (A P^T), so that the hot columns are
  // x'[0, H) and columns of equal length share lines; every call permutes x (x' = P x) first,
  // inside the timed region. y keeps its order, and cuSPARSE above ran on the graph as given.
  ktune::CsrF64 relabelled;
  int* d_old_of_new = nullptr;
  T* d_x_used = rmat.d_x;
  if (args.relabel) {
    const ktune::HotColumns by_length = ktune::hot_columns(a, 1 << 22);
    std::vector<int> new_of_old(a.cols, -1), old_of_new;
    for (int c : by_length.columns) new_of_old[c] = old_of_new.size(), old_of_new.push_back(c);
    for (int c = 0; c < a.cols; ++c) {
      if (new_of_old[c] < 0) new_of_old[c] = old_of_new.size(), old_of_new.push_back(c);
    }
    relabelled = a;
    for (int& c : relabelled.col_idx) c = new_of_old[c];
    d_old_of_new = upload(old_of_new);
    CHECK(cudaMemcpy(rmat.d_col_idx, relabelled.col_idx.data(), a.nnz() * sizeof(int),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&d_x_used, a.cols * sizeof(T)));
  }
  const ktune::CsrF64& m = args.relabel ? relabelled : a;
  const ktune::HotColumns ranked = ktune::hot_columns(m, 1 << 22);  // every column used twice
  printf("# %zu columns used twice or more\n", ranked.columns.size());
  std::vector<int> slot_of(m.cols, -1);
  for (size_t s = 0; s < ranked.columns.size(); ++s) slot_of[ranked.columns[s]] = (int)s;

  std::vector<Kernel> kernels;
  add_kernels<T, kPlain>(kernels);
  add_kernels<T, kGlobalHot>(kernels);
  add_kernels<T, kClusterHot>(kernels);
  add_kernels<T, kLocalHot>(kernels);
  std::vector<int> cluster_sizes = {2, 4, 8, 16};
  std::vector<int> kib_per_block = {48, 96, 144, 192};
  if (args.quick) cluster_sizes = {8}, kib_per_block = {144};

  struct Partitioned {
    int items;
    int2* row_blocks;
    int n;
  };
  std::vector<Partitioned> partitions;
  for (int items : {2, 4, 8}) {
    const ktune::AdaptivePartition p = ktune::adaptive_partition(m, 32 * items);
    partitions.push_back({items, reinterpret_cast<int2*>(upload(p.row_blocks)),
                          static_cast<int>(p.blocks())});
  }
  int* d_gather_cols = nullptr;
  CHECK(cudaMalloc(&d_gather_cols, sizeof(int) << 23));
  T* d_x_hot = nullptr;
  CHECK(cudaMalloc(&d_x_hot, sizeof(T) << 23));

  // Encodes the matrix for one hot layout: hot[j] (the column whose x goes to x_hot[j]) and the
  // column indices; returns the number of x_hot entries.
  std::vector<int> col_host(m.nnz());
  auto encode = [&](int mode, int cluster, int slots) -> int {
    std::vector<int> gather_cols;
    int hot_count = 0;
    if (mode == kGlobalHot || mode == kLocalHot) {
      hot_count = std::min<int>(slots, ranked.columns.size());
      gather_cols.assign(ranked.columns.begin(), ranked.columns.begin() + hot_count);
    } else if (mode == kClusterHot) {
      hot_count = std::min<int>(slots * cluster, ranked.columns.size());
      gather_cols.assign(static_cast<size_t>(slots) * cluster, -1);
      for (int s = 0; s < hot_count; ++s) {
        gather_cols[(s % cluster) * slots + s / cluster] = ranked.columns[s];
      }
    }
    for (int64_t i = 0; i < a.nnz(); ++i) {
      const int c = m.col_idx[i];
      const int s = slot_of[c];
      if (mode == kPlain || s < 0 || s >= hot_count) {
        col_host[i] = c;
      } else if (mode == kGlobalHot || mode == kLocalHot) {
        col_host[i] = ~s;
      } else {
        col_host[i] = ~(((s / cluster) << kRankBits) | (s % cluster));
      }
    }
    CHECK(cudaMemcpy(d_col_hot, col_host.data(), a.nnz() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_gather_cols, gather_cols.data(), gather_cols.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
    return static_cast<int>(gather_cols.size());
  };

  double best = 1e30;
  std::string best_name;
  for (int mode : {kPlain, kGlobalHot, kClusterHot, kLocalHot}) {
    if (args.mode >= 0 && mode != args.mode) continue;
    const std::vector<int> clusters = mode == kClusterHot ? cluster_sizes : std::vector<int>{1};
    std::vector<int> kibs = mode == kPlain ? std::vector<int>{0} : kib_per_block;
    if (mode == kGlobalHot) kibs = {32, 64, 128, 256};  // x_hot bytes, read through L1
    if (mode == kLocalHot) kibs = {32, 64, 96, 128, 160};
    if (args.kib >= 0) kibs = {args.kib};
    std::vector<int> cluster_list = clusters;
    if (args.cluster > 0 && mode == kClusterHot) cluster_list = {args.cluster};
    for (int cluster : cluster_list) {
      for (int kib : kibs) {
        const int slots = kib * 1024 / sizeof(T);
        const int gather_n = encode(mode, cluster, slots);
        long long hot = 0;
        for (int c : col_host) hot += mode != kPlain && c < 0;
        const double hot_share = 100.0 * hot / m.nnz();
        const int* cols = mode == kPlain ? rmat.d_col_idx : d_col_hot;
        for (const Kernel& k : kernels) {
          if (k.mode != mode || (args.items > 0 && k.items != args.items)) continue;
          const Partitioned& part = *std::find_if(partitions.begin(), partitions.end(),
              [&](const Partitioned& p) { return p.items == k.items; });
          for (int block : {512, 1024}) {
            if (args.block > 0 && block != args.block) continue;
            const int tile_bytes = (block / 32) * 32 * k.items * sizeof(T);
            const int smem =
                tile_bytes + (mode == kClusterHot || mode == kLocalHot ? kib * 1024 : 0);
            char name[160];
            snprintf(name, sizeof name, "%s items=%d block=%d cluster=%d kib=%d",
                     kModeName[mode], k.items, block, cluster, kib);
            if (smem > (int)rmat.prop.sharedMemPerBlockOptin) continue;
            CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
            if (cluster > 8) {
              CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
            }
            cudaLaunchConfig_t config = {};
            cudaLaunchAttribute attribute;
            attribute.id = cudaLaunchAttributeClusterDimension;
            attribute.val.clusterDim.x = cluster;
            attribute.val.clusterDim.y = 1;
            attribute.val.clusterDim.z = 1;
            config.blockDim = dim3(block);
            config.dynamicSmemBytes = smem;
            config.attrs = &attribute;
            config.numAttrs = 1;
            int grid = 0;
            if (mode == kClusterHot) {
              int active_clusters = 0;
              config.gridDim = dim3(cluster);
              if (cudaOccupancyMaxActiveClusters(&active_clusters, k.fn, &config) != cudaSuccess ||
                  active_clusters == 0) {
                cudaGetLastError();
                printf("%s %s: no cluster fits\n", dtype, name);
                continue;
              }
              grid = active_clusters * cluster;
            } else {
              int per_sm = 0;
              CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.fn, block, smem));
              grid = per_sm * rmat.prop.multiProcessorCount;
              config.numAttrs = 0;
            }
            config.gridDim = dim3(grid);
            auto launch = [&] {
              CHECK(cudaMemsetAsync(rmat.d_y, 0, a.rows * sizeof(T)));
              if (args.relabel) {
                gather_hot<T><<<(m.cols + 255) / 256, 256>>>(m.cols, d_old_of_new, rmat.d_x, d_x_used);
              }
              if (gather_n > 0) {
                gather_hot<T><<<(gather_n + 255) / 256, 256>>>(gather_n, d_gather_cols, d_x_used,
                                                              d_x_hot);
              }
              CHECK(cudaLaunchKernelEx(&config,
                                       (void (*)(const int2*, int, const int*, const int*,
                                                 const T*, const T*, const T*, int, T*))k.fn,
                                       (const int2*)part.row_blocks, part.n,
                                       (const int*)rmat.d_row_ptr, cols, (const T*)rmat.d_values,
                                       (const T*)d_x_used, (const T*)d_x_hot, slots, rmat.d_y));
            };
            CHECK(cudaMemset(rmat.d_y, 0xff, a.rows * sizeof(T)));
            launch();
            CHECK(cudaDeviceSynchronize());
            const long long wrong = rmat.wrong();
            const double us = timer.median_us(launch, args.reps);
            printf("%s %s grid=%d: %.1f us, %.2fx cuSPARSE, hot gathers %.1f%%, wrong rows %lld\n",
                   dtype, name, grid, us, best_vendor / us, hot_share, wrong);
            fflush(stdout);
            if (wrong == 0 && us < best) best = us, best_name = name;
          }
        }
      }
    }
  }
  print_best(dtype, best_name, best, best_vendor);
}

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (args.parse_common(i, argc, argv)) continue;
    if (arg == "--relabel") args.relabel = true;
    else if (arg == "--quick") args.quick = true;
    else if (arg == "--mode" && i + 1 < argc) args.mode = atoi(argv[++i]);
    else if (arg == "--items" && i + 1 < argc) args.items = atoi(argv[++i]);
    else if (arg == "--block" && i + 1 < argc) args.block = atoi(argv[++i]);
    else if (arg == "--cluster" && i + 1 < argc) args.cluster = atoi(argv[++i]);
    else if (arg == "--kib" && i + 1 < argc) args.kib = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--f64] [--relabel] [--quick] [--scale N] [--reps N] [--mode 0-3] [--items N] "
              "[--block N] [--cluster N] [--kib N]\n", argv[0]);
      return 2;
    }
  }
  args.f64 ? run<double>(args) : run<float>(args);
  return 0;
}
