// How many iterations PageRank runs on a graph under ktune's stopping test (L1 change below
// 1e-6, in f64 and f32) and Gunrock's (max-norm change below 1e-6, f32), with the same update
// (damping 0.85, dangling rank spread uniformly), on the CPU: the iteration counts behind the
// per-iteration comparison in bench/README.md. Reads a Matrix Market file from graph_export.
//   g++ -O2 -o pagerank_iterations bench/experiments/pagerank_iterations.cpp
//   ./pagerank_iterations G.mtx
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
template <typename T>
int run(int n, const std::vector<int>& src, const std::vector<int>& dst, bool max_norm, double tol) {
  std::vector<int> deg(n, 0);
  for (int u : src) deg[u]++;
  std::vector<T> x(n, T(1) / n), y(n);
  const T d = T(0.85);
  for (int it = 1; it <= 10000; ++it) {
    T dangling = 0;
    for (int u = 0; u < n; ++u) if (!deg[u]) dangling += x[u];
    std::fill(y.begin(), y.end(), T(0));
    for (size_t e = 0; e < src.size(); ++e) y[dst[e]] += x[src[e]] / deg[src[e]];
    double change = 0;
    for (int v = 0; v < n; ++v) {
      y[v] = (1 - d) / n + d * (y[v] + dangling / n);
      double c = std::fabs(double(y[v]) - double(x[v]));
      change = max_norm ? std::max(change, c) : change + c;
    }
    x.swap(y);
    if (change < tol) return it;
  }
  return -1;
}
int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "r");
  char line[512];
  int n = 0, m = 0, nnz = 0;
  while (fgets(line, sizeof line, f)) { if (line[0] == '%') continue; sscanf(line, "%d %d %d", &n, &m, &nnz); break; }
  std::vector<int> src(nnz), dst(nnz);
  for (int e = 0; e < nnz; ++e) { double w; if (fscanf(f, "%d %d %lf", &src[e], &dst[e], &w) != 3) return 1; src[e]--; dst[e]--; }
  printf("%s n=%d m=%d  ktune(L1<1e-6,f64)=%d  ktune(L1<1e-6,f32)=%d  gunrock(max<1e-6,f32)=%d\n", argv[1], n, nnz,
         run<double>(n, src, dst, false, 1e-6), run<float>(n, src, dst, false, 1e-6), run<float>(n, src, dst, true, 1e-6));
}
