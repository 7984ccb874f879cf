// Experiment (issue 24): why union-find's edge pass runs about twice as fast with four edges a
// thread as with one on meshes and road networks (bench/results/cc_search_h200_10aa68e.md), when
// the first model prices them alike. Runs cc_common.cuh's unite over an edge list in ktune's order
// (written by union_find_edges.py) for every (block, items) of cc_space()'s edge schedule, times
// the edge pass and the compression separately (L2 flushed, medians), and reads back the forest
// the edge pass leaves: its deepest and mean vertex depth, which the compression walks, and the
// compare-and-swaps that failed (a counted run apart from the timed ones).
// Usage: union_find_depth EDGES.bin...   (EDGES.bin: int32 n, int32 m, then m pairs u < v)
#define KT_ALGORITHM 2
#include "bench/experiments/prototype_timing.cuh"
#include "kernels/cc/cc_common.cuh"

#include <string>

__device__ unsigned long long failed_swaps;

// unite() with its failed compare-and-swaps counted (the timed runs use unite itself).
__device__ void unite_counted(int* label, int u, int v) {
  int ru = find_root(label, u), rv = find_root(label, v);
  while (ru != rv) {
    const int high = max(ru, rv), low = min(ru, rv);
    const int seen = atomicCAS(label + high, high, low);
    if (seen == high) return;
    atomicAdd(&failed_swaps, 1ull);
    ru = seen;
    rv = low;
  }
}

// cc_edge.cu's order: a thread's ITEMS edges BLOCK apart, blocks of BLOCK * ITEMS edges.
template <int Block, int Items, bool Count>
__global__ void __launch_bounds__(Block) edge_pass(int m, const int* __restrict__ eu, const int* __restrict__ ev,
                                                  int* label) {
  const int first = blockIdx.x * Block * Items + threadIdx.x;
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int e = first + k * Block;
    if (e >= m) break;
    if (Count)
      unite_counted(label, eu[e], ev[e]);
    else
      unite(label, eu[e], ev[e]);
  }
}

__global__ void init(int n, int* label) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) label[v] = v;
}

// cc_labels.cu's compression: every vertex walks to its root.
__global__ void compress(int n, int* label) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int root = label[v];
  for (int up = label[root]; up != root; up = label[root]) root = up;
  label[v] = root;
}

struct Depths {
  int deepest = 0;
  double mean = 0;
};
Depths forest_depths(const std::vector<int>& label) {
  const int n = static_cast<int>(label.size());
  std::vector<int> depth(n, -1);
  Depths d;
  std::vector<int> path;
  for (int v = 0; v < n; ++v) {
    int x = v;
    while (depth[x] < 0 && label[x] != x) {
      path.push_back(x);
      x = label[x];
    }
    int at = label[x] == x && depth[x] < 0 ? 0 : depth[x];
    depth[x] = at;
    for (auto it = path.rbegin(); it != path.rend(); ++it) depth[*it] = ++at;
    path.clear();
  }
  for (int v = 0; v < n; ++v) {
    d.deepest = std::max(d.deepest, depth[v]);
    d.mean += depth[v];
  }
  d.mean /= std::max(n, 1);
  return d;
}

template <int Block, int Items>
void run(const char* name, int n, int m, const int* eu, const int* ev, int* label, Timer& timer) {
  const int grid = std::max(1, (m + Block * Items - 1) / (Block * Items));
  const int vgrid = (n + 1023) / 1024;
  const auto fresh = [&] { init<<<vgrid, 1024>>>(n, label); };
  // Times: the edge pass alone (after init), the compression alone (after both), the three.
  std::vector<double> edge_us, compress_us;
  const double all = timer.median_us([&] {
    fresh();
    edge_pass<Block, Items, false><<<grid, Block>>>(m, eu, ev, label);
    compress<<<vgrid, 1024>>>(n, label);
  });
  cudaEvent_t a, b, c;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventCreate(&c));
  Depths depths{};
  std::vector<int> host(n);
  for (int rep = 0; rep < 21; ++rep) {
    CHECK(cudaMemsetAsync(timer.flush, rep, timer.flush_bytes));
    fresh();
    CHECK(cudaEventRecord(a));
    edge_pass<Block, Items, false><<<grid, Block>>>(m, eu, ev, label);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    if (rep == 0) {
      CHECK(cudaMemcpy(host.data(), label, n * sizeof(int), cudaMemcpyDeviceToHost));
      depths = forest_depths(host);
    }
    CHECK(cudaMemsetAsync(timer.flush, rep, timer.flush_bytes));
    CHECK(cudaEventRecord(b));
    compress<<<vgrid, 1024>>>(n, label);
    CHECK(cudaEventRecord(c));
    CHECK(cudaEventSynchronize(c));
    float ab = 0, bc = 0;
    CHECK(cudaEventElapsedTime(&ab, a, b));
    CHECK(cudaEventElapsedTime(&bc, b, c));
    edge_us.push_back(ab * 1e3);
    compress_us.push_back(bc * 1e3);
  }
  // The edge-pass time above includes the flush between the two kernels; time it alone.
  const double edge = timer.median_us([&] {
    fresh();
    edge_pass<Block, Items, false><<<grid, Block>>>(m, eu, ev, label);
  });
  const double init_only = timer.median_us(fresh);
  std::sort(compress_us.begin(), compress_us.end());
  unsigned long long zero = 0, failed = 0;
  CHECK(cudaMemcpyToSymbol(failed_swaps, &zero, sizeof zero));
  fresh();
  edge_pass<Block, Items, true><<<grid, Block>>>(m, eu, ev, label);
  CHECK(cudaMemcpyFromSymbol(&failed, failed_swaps, sizeof failed));
  printf("%s block=%d items=%d all_us=%.1f edge_us=%.1f init_us=%.1f compress_us=%.1f deepest=%d mean_depth=%.2f "
         "failed_swaps=%llu\n",
         name, Block, Items, all, edge - init_only, init_only, compress_us[compress_us.size() / 2], depths.deepest,
         depths.mean, failed);
  fflush(stdout);
}

template <int Items>
void blocks(const char* name, int n, int m, const int* eu, const int* ev, int* label, Timer& t) {
  run<64, Items>(name, n, m, eu, ev, label, t);
  run<128, Items>(name, n, m, eu, ev, label, t);
  run<256, Items>(name, n, m, eu, ev, label, t);
  run<512, Items>(name, n, m, eu, ev, label, t);
  run<1024, Items>(name, n, m, eu, ev, label, t);
}

int main(int argc, char** argv) {
  Timer timer;
  for (int i = 1; i < argc; ++i) {
    FILE* f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "cannot open %s\n", argv[i]);
      return 1;
    }
    int nm[2];
    if (fread(nm, sizeof(int), 2, f) != 2) return 1;
    std::vector<int> pairs(2 * static_cast<size_t>(nm[1]));
    if (fread(pairs.data(), sizeof(int), pairs.size(), f) != pairs.size()) return 1;
    fclose(f);
    std::vector<int> u(nm[1]), v(nm[1]);
    for (int e = 0; e < nm[1]; ++e) {
      u[e] = pairs[2 * e];
      v[e] = pairs[2 * e + 1];
    }
    int* eu = upload(u);
    int* ev = upload(v);
    int* label = nullptr;
    CHECK(cudaMalloc(&label, nm[0] * sizeof(int)));
    std::string name = argv[i];
    name = name.substr(name.find_last_of('/') + 1);
    blocks<1>(name.c_str(), nm[0], nm[1], eu, ev, label, timer);
    blocks<2>(name.c_str(), nm[0], nm[1], eu, ev, label, timer);
    blocks<4>(name.c_str(), nm[0], nm[1], eu, ev, label, timer);
    CHECK(cudaFree(eu));
    CHECK(cudaFree(ev));
    CHECK(cudaFree(label));
  }
  return 0;
}
