// SSSP's work on the CPU, pass by pass, as sssp_relax/sssp_sweep do it on the GPU (one thread
// here, so a pass sees its own improvements in queue order, as the GPU's does in part): passes,
// bucket advances (each a sweep over every vertex), edges scanned and improving offers (each
// an atomicMin), for Bellman-Ford and delta-stepping at each Δ (in mean edge weights). It tells
// whether a graph's SSSP time goes to passes (a fixed cost each) or to edges. The "+s" and "+sc"
// rows count two savings the kernel does not make: on the GPU they cost more than they saved
// (bench/NOTES.md, "SSSP's relaxation").
//   g++ -O2 -o sssp_passes bench/experiments/sssp_passes.cpp
//   ./sssp_passes G.mtx SOURCE     (G.mtx from graph_export, its weights SSSP's generated ones)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

struct Graph {
  int n = 0;
  std::vector<int> row_ptr, col, weight;
};

Graph read(const char* path) {
  FILE* f = std::fopen(path, "r");
  if (!f) std::exit(1);
  char line[512];
  do {
    if (!std::fgets(line, sizeof line, f)) std::exit(1);
  } while (line[0] == '%');
  long rows = 0, cols = 0, nnz = 0;
  std::sscanf(line, "%ld %ld %ld", &rows, &cols, &nnz);
  std::vector<int> src(nnz), dst(nnz), w(nnz);
  for (long k = 0; k < nnz; ++k) {
    double value = 1;
    if (std::fscanf(f, "%d %d %lf", &src[k], &dst[k], &value) < 2) std::exit(1);
    --src[k], --dst[k];
    w[k] = static_cast<int>(value);
  }
  std::fclose(f);
  Graph g;
  g.n = static_cast<int>(rows);
  g.row_ptr.assign(g.n + 1, 0);
  for (long k = 0; k < nnz; ++k) ++g.row_ptr[src[k] + 1];
  for (int v = 0; v < g.n; ++v) g.row_ptr[v + 1] += g.row_ptr[v];
  std::vector<int> at(g.row_ptr.begin(), g.row_ptr.end() - 1);
  g.col.resize(nnz), g.weight.resize(nnz);
  for (long k = 0; k < nnz; ++k) {
    g.col[at[src[k]]] = dst[k];
    g.weight[at[src[k]]++] = w[k];
  }
  return g;
}

struct Work {
  long passes = 0, sweeps = 0, edges = 0, improvements = 0, queued = 0;
};

// delta <= 0: Bellman-Ford.
// skip: a queued vertex whose distance dropped again after it was queued, so that it is queued
// for the next pass too, is left to that pass. clear: queuing a vertex below the threshold
// takes it out of the far set, so no sweep queues it again at the same distance.
Work run(const Graph& g, int source, long delta, bool skip, bool clear) {
  constexpr int kInf = std::numeric_limits<int>::max();
  std::vector<int> dist(g.n, kInf), stamp(g.n, 0), queue{source}, next;
  std::vector<char> pending(g.n, 0);
  dist[source] = 0;
  long threshold = delta > 0 ? delta : std::numeric_limits<long>::max(), far = 0;
  Work work;
  while (!queue.empty() || far > 0) {
    ++work.passes;
    work.queued += static_cast<long>(queue.size());
    next.clear();
    for (int v : queue) {
      if (skip && stamp[v] > work.passes) continue;
      for (int e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
        ++work.edges;
        const int w = g.col[e];
        const long offer = static_cast<long>(dist[v]) + g.weight[e];
        if (offer >= dist[w]) continue;
        dist[w] = static_cast<int>(offer);
        ++work.improvements;
        if (offer >= threshold) {
          if (!pending[w]) pending[w] = 1, ++far;
          continue;
        }
        if (clear && pending[w]) pending[w] = 0, --far;
        if (stamp[w] <= work.passes) stamp[w] = static_cast<int>(work.passes) + 1, next.push_back(w);
      }
    }
    queue.swap(next);
    if (queue.empty() && far > 0) {
      threshold += delta;
      ++work.sweeps;
      for (int v = 0; v < g.n; ++v)
        if (pending[v] && dist[v] < threshold) pending[v] = 0, --far, queue.push_back(v);
    }
  }
  return work;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const Graph g = read(argv[1]);
  const int source = std::atoi(argv[2]);
  double mean = 0;
  for (int w : g.weight) mean += w;
  mean /= static_cast<double>(g.weight.size());
  std::printf("%d vertices, %zu edges, mean weight %.2f\n", g.n, g.col.size(), mean);
  std::printf("%-14s %8s %8s %12s %12s %12s\n", "algorithm", "passes", "sweeps", "edges", "improving", "queued");
  const int deltas[] = {0, 1, 2, 4, 8};
  for (int d : deltas) {
    const long delta = d ? static_cast<long>(d * mean + 0.5) : 0;
    for (int variant = 0; variant < 3; ++variant) {
      const Work w = run(g, source, delta, variant >= 1, variant >= 2);
      char name[32];
      if (d) std::snprintf(name, sizeof name, "delta %d%s", d, variant == 2 ? "+sc" : variant ? "+s" : "");
      else std::snprintf(name, sizeof name, "bellman-ford%s", variant ? "+s" : "");
      if (!d && variant == 2) continue;
      std::printf("%-14s %8ld %8ld %12ld %12ld %12ld\n", name, w.passes, w.sweeps, w.edges, w.improvements, w.queued);
    }
  }
}
