// R-MAT / Graph500 Kronecker generator (declared in generators.h).
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

#include "workload/generator_checks.h"
#include "workload/generators.h"
#include "workload/parallel.h"
#include "workload/radix_sort.h"
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

// The matrix whose entries are the sorted, distinct keys (row << scale | column), with
// values drawn from (seed, key): the same edge gets the same value however it was made.
CsrF64 csr_from_sorted_keys(const std::vector<uint64_t>& keys, int scale, uint64_t seed) {
  const uint64_t column_mask = (uint64_t{1} << scale) - 1;
  const uint64_t value_seed = splitmix64(seed);  // apart from the edge streams
  CsrF64 m;
  m.rows = m.cols = int32_t{1} << scale;
  m.row_ptr.assign(static_cast<size_t>(m.rows) + 1, 0);
  for (uint64_t key : keys) ++m.row_ptr[(key >> scale) + 1];
  std::partial_sum(m.row_ptr.begin(), m.row_ptr.end(), m.row_ptr.begin());
  m.col_idx.resize(keys.size());
  m.values.resize(keys.size());
  const auto n = static_cast<int64_t>(keys.size());
  const int threads = worker_count(n, 1 << 20);
  parallel_for(threads, threads, [&](int t) {
    const int64_t end = part_begin(n, threads, t + 1);
    for (int64_t k = part_begin(n, threads, t); k < end; ++k) {
      m.col_idx[k] = static_cast<int32_t>(keys[k] & column_mask);
      m.values[k] = RandomStream(value_seed, keys[k]).value();
    }
  });
  return m;
}

}  // namespace

CsrF64 generate_rmat(int scale, int edge_factor, uint64_t seed, double a, double b, double c) {
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

  // Edges as keys (row << scale | column): sorted and deduplicated, they are the CSR
  // matrix in order, and no value has to travel with them.
  const int64_t blocks = (edges + kEdgesPerBlock - 1) / kEdgesPerBlock;
  std::vector<uint64_t> keys(static_cast<size_t>(edges));
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
        keys[e] = (uint64_t{u} << scale) | v;
      }
    }
    // Relabelled in a pass of its own: these lookups miss the cache, and here they do not
    // wait behind the generation of each edge.
    const uint64_t column_mask = (uint64_t{1} << scale) - 1;
    const int64_t end = std::min(edges, last * kEdgesPerBlock);
    for (int64_t e = first * kEdgesPerBlock; e < end; ++e) {
      keys[e] =
          (uint64_t(label[keys[e] >> scale]) << scale) | uint64_t(label[keys[e] & column_mask]);
    }
  });
  radix_sort(keys, 2 * scale);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return csr_from_sorted_keys(keys, scale, seed);
}

}  // namespace ktune
