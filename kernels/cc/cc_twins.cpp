#include "kernels/cc/cc_twins.h"

#include <algorithm>
#include <climits>
#include <utility>
#include <vector>

#include "kernels/cc/cc_contention.h"
#include "kernels/cc/cc_edges.h"
#include "kernels/launch_twin.h"

namespace ktune {

namespace {

// cc_common.cuh's link under hooking or label propagation (union-find's passes unite in rounds),
// from the ends' labels lu and lv as its thread read them: whether they differed.
bool link(CcAlgorithm algorithm, HostArray<int32_t>& label, int32_t u, int32_t v, int32_t lu, int32_t lv) {
  if (lu == lv) return false;
  const int32_t target = algorithm == CcAlgorithm::Hooking ? std::max(lu, lv) : (lu < lv ? v : u);
  label.set(target, std::min(label[target], std::min(lu, lv)));  // atomicMin
  return true;
}

void report(PlanMemory& memory, bool changed) {
  if (changed) HostArray<int32_t>(memory, "changed").set(0, 1);
}

void init(const LaunchStep& step, PlanMemory& memory) {
  HostArray<int32_t> label(memory, "label");
  for (int32_t v = 0, n = scalar_arg<int32_t>(step, 0); v < n; ++v) label.set(v, v);
}

void edge_pass(const LaunchStep& step, PlanMemory& memory, CcAlgorithm algorithm, int32_t items) {
  const EntryRows<HostArray<const int32_t>> edge_u{{memory, "edge_ptr"}, {memory, "edge_chunk_row"}};
  HostArray<const int32_t> edge_v(memory, "edge_col");
  HostArray<int32_t> label(memory, "label");
  const int32_t pairs = scalar_arg<int32_t>(step, 0);
  if (algorithm == CcAlgorithm::UnionFind) {
    const UnionRounds rounds = unite_in_rounds(label, edge_u, edge_v, pairs, step.block.x, items);
    memory.queue_swaps(rounds.queued_swaps);
    report(memory, rounds.unions > 0);
    return;
  }
  // A round's threads read their ends' labels before any of them lowers one: a label moves as
  // far in a pass as the device's rounds let it, not as far as one thread after another would.
  bool changed = false;
  std::vector<std::pair<int32_t, int32_t>> read;
  for_each_edge_round(edge_u, edge_v, pairs, step.block.x, items, [&](const auto& round) {
    read.clear();
    for (const auto& [u, v] : round) read.emplace_back(label[u], label[v]);
    for (size_t i = 0; i < round.size(); ++i)
      changed |= link(algorithm, label, round[i].first, round[i].second, read[i].first, read[i].second);
  });
  report(memory, changed);
}

void vertex_pass(const LaunchStep& step, PlanMemory& memory, const CcConfig& c) {
  HostArray<const int32_t> row_ptr(memory, "row_ptr"), col_idx(memory, "col_idx");
  HostArray<const int32_t> rest_ptr(memory, "rest_ptr"), rest_idx(memory, "rest_idx");
  const bool both_ways = scalar_arg<int32_t>(step, 5) != 0;
  HostArray<int32_t> label(memory, "label");
  const CcAlgorithm algorithm = c.algorithm;
  const int32_t n = scalar_arg<int32_t>(step, 0);
  if (algorithm == CcAlgorithm::UnionFind) {
    // The rest's pointers are all zero where both_ways is 0: reading them adds nothing.
    const VertexLists<HostArray<const int32_t>> lists{row_ptr, col_idx, rest_ptr, rest_idx};
    const UnionRounds rounds = unite_vertices_in_rounds(label, lists, n, step.block.x, c.lanes, c.items);
    memory.queue_swaps(rounds.queued_swaps);
    report(memory, rounds.unions > 0);
    return;
  }
  const auto each_neighbour = [&](int32_t v, auto&& visit) {
    for (int32_t i = row_ptr[v]; i < row_ptr[v + 1]; ++i) visit(col_idx[i]);
    if (both_ways)
      for (int32_t i = rest_ptr[v]; i < rest_ptr[v + 1]; ++i) visit(rest_idx[i]);
  };
  // As the edge pass: a round's reads come before its writes.
  bool changed = false;
  std::vector<int32_t> smallest;
  std::vector<std::pair<int32_t, int32_t>> read;  // hooking: (label[v], label[u]) of each link
  for_each_vertex_round(n, step.block.x, c.lanes, c.items, [&](const std::vector<int32_t>& round) {
    if (algorithm == CcAlgorithm::LabelPropagation) {
      smallest.clear();
      for (int32_t v : round) {
        int32_t least = INT32_MAX;
        each_neighbour(v, [&](int32_t u) { least = std::min(least, label[u]); });
        smallest.push_back(least);
      }
      for (size_t i = 0; i < round.size(); ++i)
        if (smallest[i] < label[round[i]]) {
          label.set(round[i], smallest[i]);
          changed = true;
        }
      return;
    }
    read.clear();
    for (int32_t v : round) each_neighbour(v, [&](int32_t u) { read.emplace_back(label[v], label[u]); });
    size_t at = 0;
    for (int32_t v : round)
      each_neighbour(v, [&](int32_t u) {
        changed |= link(algorithm, label, v, u, read[at].first, read[at].second);
        ++at;
      });
  });
  report(memory, changed);
}

// A thread a vertex, a wave's jumps read before its writes.
void jump(const LaunchStep& step, PlanMemory& memory, int32_t jumps) {
  HostArray<int32_t> label(memory, "label");
  std::vector<int32_t> jumped;
  for_each_vertex_round(scalar_arg<int32_t>(step, 0), step.block.x, 1, 1, [&](const std::vector<int32_t>& round) {
    jumped.clear();
    for (int32_t v : round) {
      int32_t l = label[v];
      for (int32_t j = 0; j < jumps; ++j) l = label[l];
      jumped.push_back(l);
    }
    for (size_t i = 0; i < round.size(); ++i) label.set(round[i], jumped[i]);
  });
}

void compress(const LaunchStep& step, PlanMemory& memory) {
  HostArray<int32_t> label(memory, "label");
  for (int32_t v = 0, n = scalar_arg<int32_t>(step, 0); v < n; ++v) {
    int32_t root = label[v];
    for (int32_t up = label[root]; up != root; up = label[root]) root = up;
    label.set(v, root);
  }
}

}  // namespace

LaunchTwins cc_twins(const CcConfig& c) {
  const CcAlgorithm algorithm = c.algorithm;
  const int32_t jumps = c.jumps;
  LaunchTwins twins = {{"cc_init", init}};
  if (c.schedule == CcSchedule::Vertex)
    twins["cc_vertex"] = [c](const LaunchStep& s, PlanMemory& m) { vertex_pass(s, m, c); };
  else
    twins["cc_edge"] = [algorithm, items = c.items](const LaunchStep& s, PlanMemory& m) {
      edge_pass(s, m, algorithm, items);
    };
  if (algorithm == CcAlgorithm::UnionFind) twins["cc_compress"] = compress;
  else if (jumps > 0) twins["cc_jump"] = [jumps](const LaunchStep& s, PlanMemory& m) { jump(s, m, jumps); };
  return twins;
}

}  // namespace ktune
