#include "kernels/cc/cc_contention.h"

#include "kernels/cc/cc_config.h"
#include "kernels/cc/cc_edges.h"
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

std::map<std::pair<int64_t, int64_t>, int64_t> union_find_queued_swaps(const CcEdgeList& edges, int32_t vertices) {
  const auto rows = entry_rows(edges);
  const int32_t* columns = entry_columns(edges);
  const ParameterSpace space = cc_space();
  // With one edge a thread a round is a whole wave whatever the block, where the block divides
  // the wave: one count serves every such block.
  const auto whole_waves = [](int64_t block) { return static_cast<int64_t>(kWaveThreads) % block == 0; };
  const std::vector<int64_t> blocks = space.param("block").values();
  std::vector<std::pair<int64_t, int64_t>> keys;
  bool counted_whole_waves = false;
  for (int64_t items : space.param("items").values())
    for (int64_t block : blocks) {
      if (items == 1 && whole_waves(block)) {
        if (counted_whole_waves) continue;
        counted_whole_waves = true;
      }
      keys.emplace_back(block, items);
    }
  std::vector<int64_t> queued(keys.size());
  // Each count simulates its own labels: as many at once as keep them within kLabelBudget.
  const int64_t label_bytes = std::max<int64_t>(1, int64_t{vertices} * static_cast<int64_t>(sizeof(int32_t)));
  const int threads = std::min<int>(worker_count(edges.entries * static_cast<int64_t>(keys.size()), 1 << 20),
                                    static_cast<int>(std::max<int64_t>(1, kLabelBudget / label_bytes)));
  parallel_for(static_cast<int>(keys.size()), threads,
               [&](int i) {
                 HostLabels labels;
                 labels.label.resize(static_cast<size_t>(vertices));
                 for (int32_t v = 0; v < vertices; ++v) labels.set(v, v);
                 const auto [block, items] = keys[static_cast<size_t>(i)];
                 queued[static_cast<size_t>(i)] =
                     unite_in_rounds(labels, rows, columns, edges.entries, block, items).queued_swaps;
               });
  std::map<std::pair<int64_t, int64_t>, int64_t> by_shape;
  for (size_t i = 0; i < keys.size(); ++i) {
    by_shape[keys[i]] = queued[i];
    if (keys[i].second == 1 && whole_waves(keys[i].first))
      for (int64_t block : blocks)
        if (whole_waves(block)) by_shape[{block, 1}] = queued[i];
  }
  return by_shape;
}

}  // namespace ktune
