#include "kernels/sssp/sssp_weights.h"

#include <algorithm>
#include <cstring>
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
  w.as_float = p.precision.output == Dtype::F32;
  w.edges = graph.col_idx.size();
  const bool file = sssp_file_weights(p);
  const int64_t max_weight = sssp_max_generated_weight(p);
  std::vector<std::byte> bytes(std::max<size_t>(w.edges, 1) * 4);
  double sum = 0;
  w.min = 0;
  w.max = 0;
  for (int32_t u = 0; u < graph.rows; ++u)
    for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k) {
      const auto e = static_cast<size_t>(k);
      const double given = file ? (graph.values.empty() ? 1.0 : graph.values[e]) : generated_weight(u, graph.col_idx[e], max_weight);
      double value;
      if (w.as_float) {
        const auto f = static_cast<float>(given);
        std::memcpy(bytes.data() + e * 4, &f, 4);
        value = f;
      } else {
        const auto i = static_cast<int32_t>(given);
        std::memcpy(bytes.data() + e * 4, &i, 4);
        value = i;
      }
      if (value > 0 && (w.min == 0 || value < w.min)) w.min = value;
      w.max = std::max(w.max, value);
      sum += value;
    }
  if (w.edges > 0) {
    w.mean = std::max(sum / static_cast<double>(w.edges), 1e-30);
  } else {
    w.min = w.max = w.mean = 1;
  }
  w.buffer.name = "weights";
  w.buffer.size = bytes.size();
  w.buffer.bytes = HostBytes(std::move(bytes));
  return w;
}

}  // namespace ktune
