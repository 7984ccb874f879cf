#pragma once
// What every prototype of bench/experiments times with, whatever it runs: error checks, the
// timer (L2 flushed, CUDA events, medians) and uploads. prototype_harness.cuh adds the SpMV
// prototypes' case, reference and cuSPARSE baseline.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                              \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

struct Timer {
  void* flush = nullptr;
  size_t flush_bytes = 0;
  cudaEvent_t start, stop;
  Timer() {
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    flush_bytes = 2 * static_cast<size_t>(l2);
    CHECK(cudaMalloc(&flush, flush_bytes));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
  }
  // Median of `reps` runs after three warm-ups, each run after a memset of twice L2.
  template <typename F>
  double median_us(F&& run, int reps = 21) {
    for (int i = 0; i < 3; ++i) run();
    std::vector<double> us;
    for (int i = 0; i < reps; ++i) {
      CHECK(cudaMemsetAsync(flush, i, flush_bytes));
      CHECK(cudaEventRecord(start));
      run();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      us.push_back(ms * 1000.0);
    }
    CHECK(cudaGetLastError());
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
  }
};

template <typename T>
T* upload(const std::vector<T>& host) {
  T* dev = nullptr;
  CHECK(cudaMalloc(&dev, std::max<size_t>(1, host.size()) * sizeof(T)));
  CHECK(cudaMemcpy(dev, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return dev;
}
