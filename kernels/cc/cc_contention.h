#pragma once
// Union-find's edge pass as the device runs it, round by round, counting the compare-and-swaps
// that queue. A thread per edge (cc_edge.cu) hooks the larger of its ends' roots under the smaller
// by compare-and-swap (cc_common.cuh's unite). Threads that run at once and reach the same larger
// root race for it: one wins, each loser learns the root's new parent from its failed swap and
// tries there, and the swaps on one address are served one after another. The sampled blocks the
// emulator traces cannot show this (it happens across blocks), and on a graph whose hub has a
// large id it decides the pass: on an H200, musae-github (vertex 31890 has 8065 neighbours of
// smaller id) took 360-510 µs with an edge a thread and 112-128 µs with four, whose rounds hold a
// quarter of the racers each (bench/results/cc_whole_space_h200_f8a2e99.md).
//
// The rounds: a thread takes its KT_ITEMS edges KT_BLOCK apart one after another, and a grid of
// more threads than a wave (kWaveThreads) runs a wave at a time; round (wave, k) is every thread
// of the wave at its k-th edge. Each round's roots are found from the state before it, its queue
// is the swaps behind the first on its most contested root, and then its edges are united. The
// count is the sum of the rounds' queues: the cost model charges each queued swap
// GpuSpec::queued_cas_ns (the rounds follow one another, and a round lasts as long as its longest
// queue).
#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "kernels/cc/cc_edges.h"
#include "kernels/graph/wave.h"

namespace ktune {

// cc_common.cuh's find_root over any label array with operator[] and set(): v's root, each
// vertex passed pointed at its grandparent on the way (path halving).
template <typename Labels>
int32_t find_label_root(Labels& label, int32_t v) {
  int32_t parent = label[v];
  while (parent != v) {
    const int32_t grand = label[parent];
    if (grand == parent) return parent;
    label.set(v, grand);
    v = parent;
    parent = grand;
  }
  return v;
}

struct UnionRounds {
  int64_t unions = 0;        // edges that joined two trees
  int64_t queued_swaps = 0;  // compare-and-swaps that queued behind another, over all rounds
};

// Unites every edge (edge_u[e], edge_v[e]) of `pairs` into `label` (roots labelled themselves)
// in the rounds of a grid of `block`-thread blocks taking `items` edges a thread.
template <typename Labels, typename Heads, typename Tails>
UnionRounds unite_in_rounds(Labels& label, const Heads& edge_u, const Tails& edge_v, int64_t pairs, int64_t block,
                            int64_t items) {
  const int64_t per_block = block * items;
  const int64_t blocks = (pairs + per_block - 1) / per_block;
  const int64_t wave_blocks = std::max<int64_t>(1, static_cast<int64_t>(kWaveThreads) / block);
  // This round's larger roots, sorted: the longest run is the most contested root's queue (a
  // round holds at most a wave of edges; a count per vertex would cost the graph's size again).
  std::vector<int32_t> raced;
  UnionRounds out;
  for (int64_t first = 0; first < blocks; first += wave_blocks) {
    const int64_t last = std::min(blocks, first + wave_blocks);
    for (int64_t k = 0; k < items; ++k) {
      const auto each_edge = [&](auto&& visit) {
        for (int64_t b = first; b < last; ++b)
          for (int64_t e = b * per_block + k * block, end = std::min(pairs, e + block); e < end; ++e)
            visit(edge_u[e], edge_v[e]);
      };
      each_edge([&](int32_t u, int32_t v) {
        const int32_t ru = find_label_root(label, u), rv = find_label_root(label, v);
        if (ru != rv) raced.push_back(std::max(ru, rv));
      });
      std::sort(raced.begin(), raced.end());
      int32_t longest = 0;
      for (size_t i = 0, j = 0; i < raced.size(); i = j) {
        while (j < raced.size() && raced[j] == raced[i]) ++j;
        longest = std::max(longest, static_cast<int32_t>(j - i));
      }
      raced.clear();
      out.queued_swaps += std::max(0, longest - 1);
      each_edge([&](int32_t u, int32_t v) {
        const int32_t ru = find_label_root(label, u), rv = find_label_root(label, v);
        if (ru == rv) return;
        label.set(std::max(ru, rv), std::min(ru, rv));
        ++out.unions;
      });
    }
  }
  return out;
}

// The queued swaps of union-find's edge pass over an edge list (cc_edges.h) from its first
// labels (each of `vertices` its own root), for every (block, items) of cc_space(): the first
// cost model's WorkEstimate::queued_swaps, which the emulator finds by the same rounds in the
// pass's twin.
std::map<std::pair<int64_t, int64_t>, int64_t> union_find_queued_swaps(const CcEdgeList& edges, int32_t vertices);

}  // namespace ktune
