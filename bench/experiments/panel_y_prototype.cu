// Experiment (issue 3): R-MAT's gathers as requests that share lines. The CSR schedules gather x
// once per nonzero in row order, so a warp's 32 lanes read 32 unrelated lines of x, and L2's
// tag requests bound the kernel (results/ncu_l2_tags_h200.md: 51 M requests on R-MAT 22, 323 µs
// at the tag peak). Here the rows are cut into panels of R rows whose y fits in one block's
// shared memory, and each panel's nonzeros are sorted by column: a warp's 32 lanes then read 32
// neighbouring columns, a few lines, and add their products into the panel's y in shared memory
// (atomicAdd on shared). A panel with more than C nonzeros is split into chunks of at most C,
// one block each, which add their y into the global y (zeroed first) instead of storing it.
// Costs: a 16-bit row per nonzero (10 bytes a nonzero in fp32, against CSR's 8), and x read once
// per panel that touches a line.
//
// Timing: L2 flushed, CUDA events, medians, cuSPARSE CSR_ALG1/ALG2 in the same run; the zeroing
// of y (when any panel is split) is inside the timed region. Every result is checked against the
// CPU twin (spmv_reference) with the harness's tolerance before it is timed.
//
// Build (from the repository root, after building `build/`):
//   bench/experiments/build-prototype panel_y_prototype
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/experiments/prototype_harness.cuh"
#include "kernels/spmv/spmv_reference.h"
#include "workload/generators.h"

// One block per work item: a panel, or a chunk of one. Loads of Items nonzeros go out together
// before their atomics, so that each thread has Items gathers in flight.
template <typename T, int Items>
__global__ void spmv_panels(const int* __restrict__ panel_rows, const int* __restrict__ panel_ptr,
                            const int* __restrict__ item_panel, const int* __restrict__ item_ptr,
                            const int* __restrict__ col, const unsigned short* __restrict__ row,
                            const T* __restrict__ values, const T* __restrict__ x,
                            T* __restrict__ y) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* ys = reinterpret_cast<T*>(smem);
  const int p = item_panel[blockIdx.x];
  const int first_row = panel_rows[p];
  const int rows = panel_rows[p + 1] - first_row;
  const int begin = item_ptr[blockIdx.x];
  const int end = item_ptr[blockIdx.x + 1];
  const bool whole = begin == panel_ptr[p] && end == panel_ptr[p + 1];
  for (int i = threadIdx.x; i < rows; i += blockDim.x) ys[i] = T(0);
  __syncthreads();
  const int stride = blockDim.x;
  int e = begin + threadIdx.x;
  for (; e + (Items - 1) * stride < end; e += Items * stride) {
    int c[Items];
    int r[Items];
    T v[Items];
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      c[k] = __ldcs(col + e + k * stride);
      r[k] = __ldcs(row + e + k * stride);
      v[k] = __ldcs(values + e + k * stride);
    }
#pragma unroll
    for (int k = 0; k < Items; ++k) v[k] *= __ldg(x + c[k]);
#pragma unroll
    for (int k = 0; k < Items; ++k) atomicAdd(ys + r[k], v[k]);
  }
  for (; e < end; e += stride) atomicAdd(ys + row[e], values[e] * __ldg(x + col[e]));
  __syncthreads();
  for (int i = threadIdx.x; i < rows; i += blockDim.x) {
    const T s = ys[i];
    if (whole) {
      y[first_row + i] = s;
    } else if (s != T(0)) {
      atomicAdd(y + first_row + i, s);
    }
  }
}

// The matrix as panels of at most `panel_rows` rows, each panel's nonzeros sorted by column.
template <typename T>
struct Panels {
  std::vector<int> rows;  // first row of each panel, then the row count
  std::vector<int> ptr;   // first nonzero of each panel, then nnz
  std::vector<int> col;
  std::vector<unsigned short> row;
  std::vector<T> values;
};

template <typename T>
Panels<T> panels_of(const ktune::CsrF64& a, int panel_rows) {
  Panels<T> p;
  p.col.reserve(a.nnz());
  p.row.reserve(a.nnz());
  p.values.reserve(a.nnz());
  struct Entry {
    int col;
    unsigned short row;
    double value;
  };
  std::vector<Entry> entries;
  for (int r0 = 0; r0 < a.rows; r0 += panel_rows) {
    const int r1 = std::min(a.rows, r0 + panel_rows);
    p.rows.push_back(r0);
    p.ptr.push_back(static_cast<int>(p.col.size()));
    entries.clear();
    for (int r = r0; r < r1; ++r) {
      for (int i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
        entries.push_back({a.col_idx[i], static_cast<unsigned short>(r - r0), a.values[i]});
      }
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& l, const Entry& r) {
      return l.col != r.col ? l.col < r.col : l.row < r.row;
    });
    for (const Entry& e : entries) {
      p.col.push_back(e.col);
      p.row.push_back(e.row);
      p.values.push_back(static_cast<T>(e.value));
    }
  }
  p.rows.push_back(a.rows);
  p.ptr.push_back(static_cast<int>(p.col.size()));
  return p;
}

struct Args : CommonArgs {};

template <typename T>
void run(const Args& args) {
  const char* dtype = sizeof(T) == 4 ? "f32" : "f64";
  RmatCase<T> rmat(args.scale, args.edge_factor);
  const ktune::CsrF64& a = rmat.a;
  Timer timer;
  const double best_vendor = cusparse_best_us(rmat, timer, args.reps);
  CHECK(cudaFree(rmat.d_col_idx));
  CHECK(cudaFree(rmat.d_values));

  const size_t smem_cap = rmat.prop.sharedMemPerBlockOptin;
  double best = 1e30;
  std::string best_name;
  for (int kib : {48, 96, 192}) {
    const int panel_rows = std::min<int>(65536, kib * 1024 / sizeof(T));
    const size_t smem = static_cast<size_t>(panel_rows) * sizeof(T);
    if (smem > smem_cap) continue;
    const Panels<T> p = panels_of<T>(a, panel_rows);
    const int n_panels = static_cast<int>(p.rows.size()) - 1;
    int* d_panel_rows = upload(p.rows);
    int* d_panel_ptr = upload(p.ptr);
    int* d_col = upload(p.col);
    unsigned short* d_row = upload(p.row);
    T* d_values = upload(p.values);
    for (long long chunk : {1LL << 16, 1LL << 17, 1LL << 18, 1LL << 30}) {
      std::vector<int> item_panel, item_ptr;
      bool split = false;
      for (int q = 0; q < n_panels; ++q) {
        const long long n = p.ptr[q + 1] - p.ptr[q];
        const long long pieces = std::max(1LL, (n + chunk - 1) / chunk);
        split = split || pieces > 1;
        for (long long k = 0; k < pieces; ++k) {
          item_panel.push_back(q);
          item_ptr.push_back(static_cast<int>(p.ptr[q] + n * k / pieces));
        }
      }
      item_ptr.push_back(p.ptr[n_panels]);
      const int items = static_cast<int>(item_panel.size());
      int* d_item_panel = upload(item_panel);
      int* d_item_ptr = upload(item_ptr);
      for (int block : {512, 1024}) {
        for (int unroll : {2, 4}) {
          void* fn = unroll == 2 ? (void*)spmv_panels<T, 2> : (void*)spmv_panels<T, 4>;
          CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
          int per_sm = 0;
          CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, block, smem));
          auto launch = [&] {
            if (split) CHECK(cudaMemsetAsync(rmat.d_y, 0, a.rows * sizeof(T)));
            if (unroll == 2) {
              spmv_panels<T, 2><<<items, block, smem>>>(d_panel_rows, d_panel_ptr, d_item_panel,
                                                       d_item_ptr, d_col, d_row, d_values, rmat.d_x, rmat.d_y);
            } else {
              spmv_panels<T, 4><<<items, block, smem>>>(d_panel_rows, d_panel_ptr, d_item_panel,
                                                       d_item_ptr, d_col, d_row, d_values, rmat.d_x, rmat.d_y);
            }
            CHECK(cudaGetLastError());
          };
          CHECK(cudaMemset(rmat.d_y, 0xff, a.rows * sizeof(T)));
          launch();
          CHECK(cudaDeviceSynchronize());
          const long long wrong = rmat.wrong();
          const double us = timer.median_us(launch, args.reps);
          char name[160];
          snprintf(name, sizeof name, "panel_rows=%d chunk=%lld block=%d unroll=%d", panel_rows,
                   chunk >= (1LL << 30) ? 0LL : chunk, block, unroll);
          printf("%s %s: panels %d, items %d, %d/SM: %.1f us, %.2fx cuSPARSE, wrong rows %lld\n",
                 dtype, name, n_panels, items, per_sm, us, best_vendor / us, wrong);
          fflush(stdout);
          if (wrong == 0 && us < best) best = us, best_name = name;
        }
      }
      CHECK(cudaFree(d_item_panel));
      CHECK(cudaFree(d_item_ptr));
    }
    CHECK(cudaFree(d_panel_rows));
    CHECK(cudaFree(d_panel_ptr));
    CHECK(cudaFree(d_col));
    CHECK(cudaFree(d_row));
    CHECK(cudaFree(d_values));
  }
  print_best(dtype, best_name, best, best_vendor);
}

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    if (!args.parse_common(i, argc, argv)) {
      fprintf(stderr, "usage: %s [--f64] [--scale N] [--reps N]\n", argv[0]);
      return 2;
    }
  }
  args.f64 ? run<double>(args) : run<float>(args);
  return 0;
}
