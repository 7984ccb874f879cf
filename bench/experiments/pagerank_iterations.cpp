// PageRank's stopping tests on the CPU, with the update both systems run (damping 0.85, dangling
// rank spread uniformly): how many iterations ktune's test (L1 change below a tolerance, f32)
// and Gunrock's (max-norm change below 1e-6, f32) run, and how far each answer is from the
// converged ranks (L1 distance to an f64 run of 200 iterations: 0.85^200 < 1e-14). "equal" is the loosest of
// ktune's tolerances whose answer is at least as close as Gunrock's: the tolerance at which the
// two compare at equal accuracy (bench/README.md). Reads a Matrix Market file from graph_export.
//   g++ -O2 -o pagerank_iterations bench/experiments/pagerank_iterations.cpp
//   ./pagerank_iterations G.mtx
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

struct Graph {
  int n = 0;
  std::vector<int> src, dst, degree;
};

struct Run {
  int iterations = -1;
  std::vector<double> ranks;
};

template <typename T>
Run run(const Graph& g, bool max_norm, double tolerance, int max_iterations) {
  std::vector<T> x(g.n, T(1) / g.n), y(g.n);
  const T d = T(0.85);
  Run r;
  for (int it = 1; it <= max_iterations; ++it) {
    T dangling = 0;
    for (int u = 0; u < g.n; ++u)
      if (!g.degree[u]) dangling += x[u];
    std::fill(y.begin(), y.end(), T(0));
    for (size_t e = 0; e < g.src.size(); ++e) y[g.dst[e]] += x[g.src[e]] / g.degree[g.src[e]];
    double change = 0;
    for (int v = 0; v < g.n; ++v) {
      y[v] = (1 - d) / g.n + d * (y[v] + dangling / g.n);
      const double c = std::fabs(double(y[v]) - double(x[v]));
      change = max_norm ? std::max(change, c) : change + c;
    }
    x.swap(y);
    if (change < tolerance) {
      r.iterations = it;
      break;
    }
  }
  r.ranks.assign(x.begin(), x.end());
  return r;
}

double l1_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += std::fabs(a[i] - b[i]);
  return s;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  FILE* f = std::fopen(argv[1], "r");
  if (!f) return 1;
  char line[512];
  Graph g;
  int cols = 0, nnz = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (line[0] == '%') continue;
    std::sscanf(line, "%d %d %d", &g.n, &cols, &nnz);
    break;
  }
  g.src.resize(nnz);
  g.dst.resize(nnz);
  g.degree.assign(g.n, 0);
  for (int e = 0; e < nnz; ++e) {
    double w;
    if (std::fscanf(f, "%d %d %lf", &g.src[e], &g.dst[e], &w) != 3) return 1;
    --g.src[e], --g.dst[e];
    ++g.degree[g.src[e]];
  }
  const std::vector<double> exact = run<double>(g, false, 0, 200).ranks;
  const Run gunrock = run<float>(g, true, 1e-6, 10000);
  const double gunrock_error = l1_distance(gunrock.ranks, exact);
  std::printf("%s n=%d m=%d gunrock(max<1e-6,f32): %d iterations, L1 error %.3g\n", argv[1], g.n, nnz,
              gunrock.iterations, gunrock_error);
  double equal = 0;
  for (double tolerance : {1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2}) {
    const Run ours = run<float>(g, false, tolerance, 10000);
    const double error = l1_distance(ours.ranks, exact);
    if (error <= gunrock_error) equal = tolerance;
    std::printf("  ktune(L1<%g,f32): %d iterations, L1 error %.3g\n", tolerance, ours.iterations, error);
  }
  std::printf("  equal accuracy at tolerance %g\n", equal);
}
