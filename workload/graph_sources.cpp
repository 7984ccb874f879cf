#include "workload/graph_sources.h"

#include <algorithm>

#include "workload/breadth_first.h"
#include "workload/random.h"

namespace ktune {
namespace {

constexpr uint64_t kSourceSeed = 0x6b74756e65425346ull;  // "ktuneBSF"
// Draws per source before falling back to a scan: enough unless almost every vertex is isolated.
constexpr int kDrawsPerSource = 64;

}  // namespace

std::vector<int32_t> seeded_sources(const CsrF64& graph, int count) {
  std::vector<int32_t> sources;
  const int32_t n = vertex_count(graph);
  if (n == 0 || graph.nnz() == 0) return sources;
  const auto usable = [&](int32_t v) {
    return out_degree(graph, v) > 0 && std::find(sources.begin(), sources.end(), v) == sources.end();
  };
  RandomStream draws(kSourceSeed, static_cast<uint64_t>(n));
  for (int draw = 0; draw < kDrawsPerSource * count && static_cast<int>(sources.size()) < count; ++draw) {
    const auto v = static_cast<int32_t>(draws.below(static_cast<uint32_t>(n)));
    if (usable(v)) sources.push_back(v);
  }
  for (int32_t v = 0; v < graph.rows && static_cast<int>(sources.size()) < count; ++v)
    if (usable(v)) sources.push_back(v);
  return sources;
}

}  // namespace ktune
