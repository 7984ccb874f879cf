#pragma once
// Union-find's edge pass as the device runs it, round by round, counting the compare-and-swaps
// that wait. A thread per edge (cc_edge.cu), or a vertex's lanes over its lower neighbours
// (cc_vertex.cu), hooks the larger of the edge's ends' roots under the smaller by
// compare-and-swap (cc_common.cuh's unite). The threads of a round find their roots from the
// state before it, all at once; then their swaps land in no order the program fixes. Two ways a
// swap waits:
//  - a queue: threads that reached the same larger root race for it, and the swaps on one
//    address are served one after another (musae-github's vertex 31890 has 8065 neighbours of
//    smaller id: 360-510 µs with an edge a thread on an H200, 112-128 with four);
//  - a chain: a swap that finds its root already hooked learns the new parent and tries there,
//    which may have been hooked too. On a mesh or a road network, where neighbours have near
//    ids, a round of every edge at once builds long paths and its losers climb them: on an
//    H200, 4elt's edge pass with one edge a thread failed 320-440 K swaps (8 an edge) and took
//    45-65 µs, with two or four 35-110 K and 24-42 µs (bench/results/union_find_depth_h200.md).
// The sampled blocks the emulator traces cannot show either (both happen across blocks).
//
// The rounds: the edge schedule's thread takes its KT_ITEMS edges KT_BLOCK apart one after
// another, and a grid of more threads than a wave (kWaveThreads) runs a wave at a time; round
// (wave, k) is every thread of the wave at its k-th edge. The vertex schedule's round (wave, k,
// j) is every lane of the wave at the j-th neighbour of its k-th vertex. A round's swaps are
// applied in a fixed stride through it (an order without the list's locality, as the SMs' is);
// its wait is the longer of its most contested root's queue and its longest chain of failed
// swaps, and the rounds follow one another: the cost models charge each waiting swap
// GpuSpec::queued_cas_ns.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

#include "kernels/cc/cc_config.h"
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
  int64_t queued_swaps = 0;  // the rounds' waits (a queue or a chain of failed swaps), summed
  int64_t failed_swaps = 0;  // every swap that failed: an atomic request to L2 beyond the finds'
};

// A stride through `count` items that visits each once and puts neighbours far apart.
inline int64_t scattering_stride(int64_t count) {
  int64_t stride = std::max<int64_t>(1, count * 618 / 1000);
  while (std::gcd(stride, count) != 1) ++stride;
  return stride;
}

// Unites one round's edges (u, v) into `label` as its threads would: roots found before any swap,
// swaps applied one by one in a scattered order, each failed swap retried from the root's new
// parent. `roots` is scratch. Adds the round's unions and wait to `out`.
template <typename Labels>
void unite_round(Labels& label, const std::vector<std::pair<int32_t, int32_t>>& edges,
                 std::vector<std::pair<int32_t, int32_t>>& roots, UnionRounds& out) {
  roots.clear();
  for (const auto& [u, v] : edges) {
    const int32_t ru = find_label_root(label, u), rv = find_label_root(label, v);
    if (ru != rv) roots.emplace_back(std::max(ru, rv), std::min(ru, rv));
  }
  if (roots.empty()) return;
  // The queue: the longest run of one larger root.
  std::vector<int32_t> raced(roots.size());
  for (size_t i = 0; i < roots.size(); ++i) raced[i] = roots[i].first;
  std::sort(raced.begin(), raced.end());
  int64_t queue = 0;
  for (size_t i = 0, j = 0; i < raced.size(); i = j) {
    while (j < raced.size() && raced[j] == raced[i]) ++j;
    queue = std::max<int64_t>(queue, static_cast<int64_t>(j - i) - 1);
  }
  // The chains: unite's loop, swap by swap.
  const auto count = static_cast<int64_t>(roots.size());
  const int64_t stride = scattering_stride(count);
  int64_t chain = 0;
  for (int64_t i = 0, at = 0; i < count; ++i, at = (at + stride) % count) {
    auto [high, low] = roots[static_cast<size_t>(at)];
    int64_t failed = 0;
    while (high != low) {
      const int32_t seen = label[high];
      if (seen == high) {
        label.set(high, low);
        ++out.unions;
        break;
      }
      ++failed;
      ++out.failed_swaps;
      high = std::max(seen, low);
      low = std::min(seen, low);
    }
    chain = std::max(chain, failed);
  }
  out.queued_swaps += std::max(queue, chain);
}

// The edge schedule's rounds over the edges (edge_u[e], edge_v[e]) of `pairs`: a grid of
// `block`-thread blocks taking `items` edges a thread; `visit` gets each round's edges as (u, v)
// pairs, in order.
template <typename Heads, typename Tails, typename Visit>
void for_each_edge_round(const Heads& edge_u, const Tails& edge_v, int64_t pairs, int64_t block, int64_t items,
                         Visit&& visit) {
  const int64_t per_block = block * items;
  const int64_t blocks = (pairs + per_block - 1) / per_block;
  const int64_t wave_blocks = std::max<int64_t>(1, static_cast<int64_t>(kWaveThreads) / block);
  std::vector<std::pair<int32_t, int32_t>> round;
  for (int64_t first = 0; first < blocks; first += wave_blocks) {
    const int64_t last = std::min(blocks, first + wave_blocks);
    for (int64_t k = 0; k < items; ++k) {
      round.clear();
      for (int64_t b = first; b < last; ++b)
        for (int64_t e = b * per_block + k * block, end = std::min(pairs, e + block); e < end; ++e)
          round.emplace_back(edge_u[e], edge_v[e]);
      visit(round);
    }
  }
}

// Unites every edge of `pairs` into `label` (roots labelled themselves) in the edge schedule's
// rounds.
template <typename Labels, typename Heads, typename Tails>
UnionRounds unite_in_rounds(Labels& label, const Heads& edge_u, const Tails& edge_v, int64_t pairs, int64_t block,
                            int64_t items) {
  std::vector<std::pair<int32_t, int32_t>> roots;
  UnionRounds out;
  for_each_edge_round(edge_u, edge_v, pairs, block, items,
                      [&](const auto& round) { unite_round(label, round, roots, out); });
  return out;
}

// The vertices a wave of `block`-thread blocks of `lanes`-thread groups holds at its groups'
// k-th of `items` vertices, a round at a time: every thread of a round reads before any writes.
template <typename Visit>
void for_each_vertex_round(int32_t vertices, int64_t block, int64_t lanes, int64_t items, Visit&& visit) {
  const int64_t groups = std::max<int64_t>(1, block / lanes);
  const int64_t per_block = groups * items;
  const int64_t blocks = (vertices + per_block - 1) / per_block;
  const int64_t wave_blocks = std::max<int64_t>(1, static_cast<int64_t>(kWaveThreads) / block);
  std::vector<int32_t> round;
  for (int64_t first = 0; first < blocks; first += wave_blocks)
    for (int64_t k = 0; k < items; ++k) {
      round.clear();
      for (int64_t b = first; b < std::min(blocks, first + wave_blocks); ++b)
        for (int64_t v = b * per_block + k * groups, end = std::min<int64_t>(vertices, v + groups); v < end; ++v)
          round.push_back(static_cast<int32_t>(v));
      visit(round);
    }
}

// A vertex's list as cc_vertex.cu reads it, over any arrays with operator[]: its out-list's
// entries, then the rest's (cc_edges.h).
template <typename Array>
struct VertexLists {
  Array out_ptr, out_col, rest_ptr, rest_col;
  int64_t size(int32_t v) const { return out_ptr[v + 1] - out_ptr[v] + rest_ptr[v + 1] - rest_ptr[v]; }
  int32_t at(int32_t v, int64_t i) const {
    const int64_t out = out_ptr[v + 1] - out_ptr[v];
    return i < out ? out_col[out_ptr[v] + i] : rest_col[rest_ptr[v] + (i - out)];
  }
};

// The same in the rounds of union-find's vertex schedule: `lanes` threads per vertex, `items`
// vertices a lane group, each lane taking the lower neighbours among its list's entries one
// after another. `lists.size(v)` is v's list length, `lists.at(v, i)` its i-th entry (the
// out-list's, then the rest's). Each of for_each_vertex_round's rounds splits by the lanes' step;
// a step's round is built when it comes, from the vertices whose lists reach it (longest first):
// a hub's thousands of steps cost its entries, not the wave's vertices each.
template <typename Labels, typename Lists>
UnionRounds unite_vertices_in_rounds(Labels& label, const Lists& lists, int32_t vertices, int64_t block,
                                     int64_t lanes, int64_t items) {
  std::vector<std::pair<int64_t, int32_t>> longest_first;  // (list length, vertex)
  std::vector<std::pair<int32_t, int32_t>> round, roots;
  UnionRounds out;
  for_each_vertex_round(vertices, block, lanes, items, [&](const std::vector<int32_t>& group_round) {
    longest_first.clear();
    for (int32_t v : group_round)
      if (const int64_t n = lists.size(v); n > 0) longest_first.emplace_back(n, v);
    std::sort(longest_first.begin(), longest_first.end(), std::greater<>());
    for (int64_t step = 0; !longest_first.empty() && step * lanes < longest_first.front().first; ++step) {
      round.clear();
      for (const auto& [n, v] : longest_first) {
        if (n <= step * lanes) break;
        for (int64_t i = step * lanes, end = std::min(n, i + lanes); i < end; ++i)
          if (const int32_t u = lists.at(v, i); u < v) round.emplace_back(v, u);
      }
      unite_round(label, round, roots, out);
    }
  });
  return out;
}

// The waits and failed swaps of union-find's edge pass from the first labels (each vertex its own
// root), for every union-find schedule of cc_space(), keyed (schedule, block, lanes, items): the
// first cost model's WorkEstimate::queued_swaps and extra L2 requests; the emulator finds the
// waits by the same rounds in the pass's twin.
// The vertex schedule is counted at one block (kVertexRoundsBlock) for all: a block only
// regroups which vertices share a round, and a count per block would take five times as long.
using UnionWaitKey = std::tuple<CcSchedule, int64_t, int64_t, int64_t>;
inline constexpr int64_t kVertexRoundsBlock = 256;
std::map<UnionWaitKey, UnionRounds> union_find_waits(const Workload& w);

}  // namespace ktune
