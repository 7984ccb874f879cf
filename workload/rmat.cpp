// R-MAT / Graph500 Kronecker generator (declared in generators.h).
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "workload/generator_checks.h"
#include "workload/generators.h"
#include "workload/parallel.h"
#include "workload/random.h"

namespace ktune {
namespace {

constexpr int kLevelsPerDraw = 6;  // 4^6 outcomes: a table that fits L1
constexpr int kOutcomes = 1 << (2 * kLevelsPerDraw);
constexpr int64_t kEdgesPerBlock = 1 << 16;            // one random stream per block of edges
constexpr uint64_t kPermutationStream = ~uint64_t{0};  // far from any block's stream

// Draws six levels of the recursive quadrant choice at once with Walker's alias method:
// one random number and two L1 lookups instead of six comparisons per level.
class QuadrantSampler {
 public:
  QuadrantSampler(double a, double b, double c) {
    const std::array<double, 4> quadrant = {a, b, c,
                                            1 - a - b - c};  // (row bit, column bit) 00 01 10 11
    std::vector<double> scaled(kOutcomes);
    for (int o = 0; o < kOutcomes; ++o) {
      double p = 1;
      int row = 0, col = 0;
      for (int level = 0; level < kLevelsPerDraw; ++level) {
        const int q = (o >> (2 * (kLevelsPerDraw - 1 - level))) & 3;
        p *= quadrant[q];
        row = 2 * row + (q >> 1);
        col = 2 * col + (q & 1);
      }
      scaled[o] = p * kOutcomes;
      bits_[o] = static_cast<uint16_t>(row | (col << 8));
    }
    std::vector<int> small, large;
    for (int o = 0; o < kOutcomes; ++o) {
      alias_[o] = static_cast<uint16_t>(o);
      (scaled[o] < 1 ? small : large).push_back(o);
    }
    while (!small.empty() && !large.empty()) {
      const int s = small.back(), l = large.back();
      small.pop_back();
      large.pop_back();
      keep_below_[s] = static_cast<uint32_t>(std::ldexp(scaled[s], 32));
      alias_[s] = static_cast<uint16_t>(l);
      scaled[l] -= 1 - scaled[s];
      (scaled[l] < 1 ? small : large).push_back(l);
    }
    for (int o : small) keep_below_[o] = UINT32_MAX;  // rounding leftovers: keep themselves
    for (int o : large) keep_below_[o] = UINT32_MAX;
  }

  // Appends `levels` (<= 6) levels to the row and column numbers.
  void extend(uint64_t random, int levels, uint32_t& row, uint32_t& col) const {
    const auto slot = static_cast<uint32_t>(random & (kOutcomes - 1));
    // Select without a branch: the choice is random, so a branch would be mispredicted often.
    const uint32_t to_alias =
        0u - static_cast<uint32_t>(static_cast<uint32_t>(random >> 32) >= keep_below_[slot]);
    const uint32_t outcome = slot ^ ((slot ^ alias_[slot]) & to_alias);
    const int drop = kLevelsPerDraw - levels;
    row = (row << levels) | ((bits_[outcome] & 0xff) >> drop);
    col = (col << levels) | ((bits_[outcome] >> 8) >> drop);
  }

 private:
  std::array<uint32_t, kOutcomes> keep_below_{};
  std::array<uint16_t, kOutcomes> alias_{};
  std::array<uint16_t, kOutcomes> bits_{};  // row bits | column bits << 8
};

// Counters updated from every thread at once (a hub row's count from all of them).
using Counters = std::unique_ptr<std::atomic<int32_t>[]>;

// Each edge's row and column, in the order of the edge streams, passed to `edge(row, col)`
// from up to `threads` threads at once; the same edges every time.
template <typename Edge>
void for_each_edge(const QuadrantSampler& sampler, const std::vector<int32_t>& label, int scale, int64_t edges,
                   uint64_t seed, const Edge& edge) {
  const int64_t blocks = (edges + kEdgesPerBlock - 1) / kEdgesPerBlock;
  const int threads = worker_count(edges, 1 << 20);
  parallel_for(threads, threads, [&](int t) {
    const int64_t first = part_begin(blocks, threads, t), last = part_begin(blocks, threads, t + 1);
    for (int64_t block = first; block < last; ++block) {
      RandomStream random(seed, static_cast<uint64_t>(block));
      const int64_t end = std::min(edges, (block + 1) * kEdgesPerBlock);
      for (int64_t e = block * kEdgesPerBlock; e < end; ++e) {
        uint32_t u = 0, v = 0;
        for (int level = 0; level < scale; level += kLevelsPerDraw) {
          sampler.extend(random.next(), std::min(kLevelsPerDraw, scale - level), u, v);
        }
        edge(label[u], label[v]);
      }
    }
  });
}

// Sorts and deduplicates each row's columns in place (row r in [start[r], start[r + 1])) and
// packs the rows together: `m` gets its row pointers and exactly its distinct columns.
void pack_sorted_rows(const std::vector<int64_t>& start, CsrF64& m) {
  const int32_t n = m.rows;
  std::vector<int32_t> distinct(static_cast<size_t>(n));
  const int threads = worker_count(start.back(), 1 << 20);
  parallel_for(threads, threads, [&](int t) {
    const int64_t end = part_begin(n, threads, t + 1);
    for (int64_t r = part_begin(n, threads, t); r < end; ++r) {
      int32_t* first = m.col_idx.data() + start[r];
      int32_t* last = m.col_idx.data() + start[r + 1];
      std::sort(first, last);
      distinct[r] = static_cast<int32_t>(std::unique(first, last) - first);
    }
  });
  // Rows only move towards the front, in order: each lands on space already read.
  m.row_ptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t r = 0; r < n; ++r) {
    const int32_t at = m.row_ptr[r];
    std::memmove(m.col_idx.data() + at, m.col_idx.data() + start[r], sizeof(int32_t) * distinct[r]);
    m.row_ptr[r + 1] = at + distinct[r];
  }
  m.col_idx.resize(static_cast<size_t>(m.row_ptr.back()));
  // The duplicates' room goes back (a copy now, while little else is held): the graph stays
  // for a whole tune.
  m.col_idx.shrink_to_fit();
}

// Each entry's value drawn from (seed, row << scale | column): the same edge gets the same
// value however the graph was made.
void draw_values(int scale, uint64_t seed, CsrF64& m) {
  const uint64_t value_seed = splitmix64(seed);  // apart from the edge streams
  m.values.resize(m.col_idx.size());
  const int threads = worker_count(m.nnz(), 1 << 20);
  parallel_for(threads, threads, [&](int t) {
    const int64_t end = part_begin(m.rows, threads, t + 1);
    for (int64_t r = part_begin(m.rows, threads, t); r < end; ++r)
      for (int32_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
        const uint64_t key = (static_cast<uint64_t>(r) << scale) | static_cast<uint64_t>(m.col_idx[k]);
        m.values[k] = RandomStream(value_seed, key).value();
      }
  });
}

}  // namespace

CsrF64 generate_rmat(int scale, int edge_factor, uint64_t seed, RmatQuadrants q, bool with_values) {
  const double a = q.a, b = q.b, c = q.c;
  require(scale >= 1, "R-MAT scale must be at least 1, got " + std::to_string(scale));
  require(edge_factor >= 1,
          "R-MAT edge factor must be at least 1, got " + std::to_string(edge_factor));
  require(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1,
          "R-MAT probabilities a, b, c must be non-negative with a + b + c <= 1");
  const int32_t vertices =
      fitting_int32(scale < 31 ? int64_t{1} << scale : int64_t{1} << 31, "R-MAT's vertex count");
  const int64_t edges = fitting_int32(int64_t{edge_factor} << scale, "R-MAT's edge count");
  const QuadrantSampler sampler(a, b, c);

  // Graph500 scrambles vertex labels so that the heavy vertices are not all at low ids.
  std::vector<int32_t> label(static_cast<size_t>(vertices));
  std::iota(label.begin(), label.end(), 0);
  RandomStream shuffle(seed, kPermutationStream);
  for (int32_t i = vertices - 1; i > 0; --i) {
    std::swap(label[i], label[shuffle.below(static_cast<uint32_t>(i) + 1)]);
  }

  // The edges are generated twice rather than kept: once to count each row's, once to place
  // each column in its row, so that nothing larger than the matrix itself is ever held (a list
  // of 2^26 edges and its sorting buffer would take four times its column indices).
  Counters counts(new std::atomic<int32_t>[static_cast<size_t>(vertices)]);
  for (int32_t r = 0; r < vertices; ++r) counts[r].store(0, std::memory_order_relaxed);
  for_each_edge(sampler, label, scale, edges, seed,
                [&](int32_t u, int32_t) { counts[u].fetch_add(1, std::memory_order_relaxed); });
  std::vector<int64_t> start(static_cast<size_t>(vertices) + 1, 0);
  for (int32_t r = 0; r < vertices; ++r) {
    start[r + 1] = start[r] + counts[r].load(std::memory_order_relaxed);
    counts[r].store(static_cast<int32_t>(start[r]), std::memory_order_relaxed);  // now the row's next slot
  }
  CsrF64 m;
  m.rows = m.cols = vertices;
  m.col_idx.resize(static_cast<size_t>(edges));
  for_each_edge(sampler, label, scale, edges, seed, [&](int32_t u, int32_t v) {
    m.col_idx[counts[u].fetch_add(1, std::memory_order_relaxed)] = v;
  });
  counts.reset();
  pack_sorted_rows(start, m);  // repeated edges merged
  if (with_values) draw_values(scale, seed, m);
  return m;
}

}  // namespace ktune
