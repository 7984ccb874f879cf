#include "kernels/sssp/sssp_passes.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <mutex>

#include "workload/breadth_first.h"

namespace ktune {

namespace {
// A walk's state a vertex: its distance, stamp, far flag and two queue slots.
constexpr int64_t kWalkBytesPerVertex = 4 + 4 + 1 + 2 * 4;
// Passes recorded one by one; the first model lists each as a step of every configuration.
constexpr size_t kMaxRecordedFrontiers = size_t{1} << 16;
}  // namespace

SsspPassWork follow_sssp_passes(const CsrF64& graph, const SsspWeights& weights, int32_t source,
                                double delta, int64_t budget) {
  const int32_t n = vertex_count(graph);
  SsspPassWork work;
  if (source < 0 || source >= n) return work;
  // A tune estimates its configurations side by side, a walk per Δ: on a graph of tens of
  // millions of vertices, walks whose state passes 256 MB take turns instead of multiplying it.
  static std::mutex large_walks;
  std::unique_lock<std::mutex> turn(large_walks, std::defer_lock);
  if (static_cast<int64_t>(n) * kWalkBytesPerVertex > (int64_t{256} << 20)) turn.lock();
  // Floats and 32-bit stamps: a tune follows a dozen Δ side by side on graphs of millions of
  // vertices, and the counts need no exact distances.
  constexpr float kUnreached = std::numeric_limits<float>::infinity();
  std::vector<float> dist(static_cast<size_t>(n), kUnreached);
  std::vector<int32_t> stamp(static_cast<size_t>(n), 0);  // the pass a vertex was last queued for
  std::vector<char> pending(static_cast<size_t>(n), 0);   // waiting in the far set
  std::vector<int32_t> queue{source}, next;
  dist[static_cast<size_t>(source)] = 0;
  double threshold = delta > 0 ? delta : std::numeric_limits<double>::infinity();
  int64_t far = 0, steps = 0;
  while (!queue.empty() || far > 0) {
    if (steps > budget) {
      work.cut_short = true;
      break;
    }
    ++work.passes;
    work.queued += static_cast<int64_t>(queue.size());
    const int64_t edges_before = work.edges;
    Frontier frontier{static_cast<int64_t>(queue.size()), 0, 0};
    next.clear();
    for (const int32_t v : queue) {
      if (v >= graph.rows) continue;  // no out-edges
      frontier.longest = std::max<int64_t>(frontier.longest, out_degree(graph, v));
      for (int64_t e = graph.row_ptr[static_cast<size_t>(v)]; e < graph.row_ptr[static_cast<size_t>(v) + 1]; ++e) {
        ++work.edges;
        const int32_t head = graph.col_idx[static_cast<size_t>(e)];
        const float offer = dist[static_cast<size_t>(v)] + static_cast<float>(weights[static_cast<size_t>(e)]);
        if (!(offer < dist[static_cast<size_t>(head)])) continue;
        dist[static_cast<size_t>(head)] = offer;
        if (!(offer < threshold)) {
          if (!pending[static_cast<size_t>(head)]) pending[static_cast<size_t>(head)] = 1, ++far;
          continue;
        }
        if (stamp[static_cast<size_t>(head)] <= work.passes) {
          stamp[static_cast<size_t>(head)] = static_cast<int32_t>(work.passes + 1);
          next.push_back(head);
        }
      }
    }
    frontier.edges = work.edges - edges_before;
    if (work.frontiers.size() < kMaxRecordedFrontiers) {
      work.frontiers.push_back(frontier);
    } else {  // the rest as one, so that a walk of millions of passes keeps a bounded record
      Frontier& rest = work.frontiers.back();
      rest.items += frontier.items;
      rest.edges += frontier.edges;
      rest.longest = std::max(rest.longest, frontier.longest);
    }
    queue.swap(next);
    steps = work.edges + work.sweeps * static_cast<int64_t>(n);
    if (queue.empty() && far > 0) {
      // As sssp_pass_end: the threshold rises by Δ (a sweep a rise, whether or not it finds any).
      threshold += delta;
      ++work.sweeps;
      for (int32_t v = 0; v < n; ++v)
        if (pending[static_cast<size_t>(v)] && dist[static_cast<size_t>(v)] < threshold) {
          pending[static_cast<size_t>(v)] = 0;
          --far;
          queue.push_back(v);
        }
    }
  }
  return work;
}

}  // namespace ktune
