#include "kernels/sssp/sssp_weights.h"

#include <algorithm>
#include <utility>

#include "kernels/sssp/sssp_problem.h"

namespace ktune {

int32_t generated_weight(int32_t u, int32_t v, int64_t max_weight) {
  if (u > v) std::swap(u, v);
  // SplitMix64's finaliser over the pair: neighbouring edges get unrelated weights.
  uint64_t x = (static_cast<uint64_t>(static_cast<uint32_t>(u)) << 32) | static_cast<uint32_t>(v);
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return static_cast<int32_t>(1 + x % static_cast<uint64_t>(max_weight));
}

SsspWeights sssp_weights(const CsrF64& graph, const Problem& p) {
  SsspWeights w;
  w.values.resize(graph.col_idx.size());
  const bool file = sssp_file_weights(p);
  const int64_t max_weight = sssp_max_generated_weight(p);
  const bool as_float = p.precision.output == Dtype::F32;
  for (int32_t u = 0; u < graph.rows; ++u)
    for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k) {
      const auto e = static_cast<size_t>(k);
      double value = file ? (graph.values.empty() ? 1.0 : graph.values[e]) : generated_weight(u, graph.col_idx[e], max_weight);
      if (as_float) value = static_cast<float>(value);
      w.values[e] = value;
    }
  if (!w.values.empty()) {
    w.min = 0;
    w.max = 0;
    double sum = 0;
    for (double v : w.values) {
      if (v > 0 && (w.min == 0 || v < w.min)) w.min = v;
      w.max = std::max(w.max, v);
      sum += v;
    }
    w.mean = std::max(sum / static_cast<double>(w.values.size()), 1e-30);
  } else {
    w.min = w.max = w.mean = 1;
  }
  return w;
}

}  // namespace ktune
