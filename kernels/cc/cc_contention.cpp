#include "kernels/cc/cc_contention.h"

#include <memory>
#include <numeric>

#include "workload/breadth_first.h"
#include "workload/parallel.h"

namespace ktune {

namespace {

// The label arrays the counts hold at once: on R-MAT 22 (4 M vertices) eleven counts side by side
// held 185 MB, two thirds of the graph.
constexpr int64_t kLabelBudget = int64_t{64} << 20;

// The label array of a first-model count: plain host memory.
struct HostLabels {
  std::vector<int32_t> label;
  int32_t operator[](int64_t v) const { return label[static_cast<size_t>(v)]; }
  void set(int64_t v, int32_t parent) { label[static_cast<size_t>(v)] = parent; }
  size_t size() const { return label.size(); }
};

}  // namespace

std::map<UnionWaitKey, UnionRounds> union_find_waits(const Workload& w) {
  const std::shared_ptr<const CcEdgeList> edges = cc_edge_list(w);
  const CcNeighbours neighbours = cc_neighbours(w);
  const int32_t vertices = vertex_count(w.matrix);
  const auto rows = entry_rows(*edges);
  const int32_t* columns = entry_columns(*edges);
  const auto* out_ptr = reinterpret_cast<const int32_t*>(neighbours.out->row_ptr.data());
  const auto* out_col = reinterpret_cast<const int32_t*>(neighbours.out->col_idx.data());
  const auto* rest_ptr = reinterpret_cast<const int32_t*>(neighbours.rest->row_ptr.data());
  const auto* rest_col = reinterpret_cast<const int32_t*>(neighbours.rest->col_idx.data());
  const VertexLists<const int32_t*> lists{out_ptr, out_col, rest_ptr, rest_col};
  const ParameterSpace space = cc_space();
  // With one edge a thread a round is a whole wave whatever the block, where the block divides
  // the wave: one count serves every such block.
  const auto whole_waves = [](int64_t block) { return static_cast<int64_t>(kWaveThreads) % block == 0; };
  const std::vector<int64_t> blocks = space.param("block").values();
  std::vector<UnionWaitKey> keys;
  bool counted_whole_waves = false;
  for (int64_t items : space.param("items").values()) {
    for (int64_t block : blocks) {
      if (items == 1 && whole_waves(block)) {
        if (counted_whole_waves) continue;
        counted_whole_waves = true;
      }
      keys.emplace_back(CcSchedule::Edge, block, 1, items);
    }
    for (int64_t lanes : space.param("lanes").values())
      keys.emplace_back(CcSchedule::Vertex, kVertexRoundsBlock, lanes, items);
  }
  std::vector<UnionRounds> waits(keys.size());
  // Each count simulates its own labels: as many at once as keep them within kLabelBudget.
  const int64_t label_bytes = std::max<int64_t>(1, int64_t{vertices} * static_cast<int64_t>(sizeof(int32_t)));
  const int threads = std::min<int>(worker_count(edges->entries * static_cast<int64_t>(keys.size()), 1 << 20),
                                    static_cast<int>(std::max<int64_t>(1, kLabelBudget / label_bytes)));
  parallel_for(static_cast<int>(keys.size()), threads, [&](int i) {
    HostLabels labels;
    labels.label.resize(static_cast<size_t>(vertices));
    std::iota(labels.label.begin(), labels.label.end(), 0);
    const auto [schedule, block, lanes, items] = keys[static_cast<size_t>(i)];
    waits[static_cast<size_t>(i)] =
        schedule == CcSchedule::Edge
            ? unite_in_rounds(labels, rows, columns, edges->entries, block, items)
            : unite_vertices_in_rounds(labels, lists, vertices, block, lanes, items);
  });
  std::map<UnionWaitKey, UnionRounds> by_key;
  for (size_t i = 0; i < keys.size(); ++i) {
    by_key[keys[i]] = waits[i];
    const auto [schedule, block, lanes, items] = keys[i];
    if (schedule == CcSchedule::Edge && items == 1 && whole_waves(block))
      for (int64_t other : blocks)
        if (whole_waves(other)) by_key[{CcSchedule::Edge, other, 1, 1}] = waits[i];
  }
  return by_key;
}

}  // namespace ktune
