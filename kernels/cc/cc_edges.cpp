#include "kernels/cc/cc_edges.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "workload/breadth_first.h"
#include "workload/parallel.h"

namespace ktune {

namespace {

const int32_t* ints(const HostBytes& bytes) { return reinterpret_cast<const int32_t*>(bytes.data()); }

HostBytes int32_bytes(std::vector<int32_t> values) {
  if (values.empty()) values.push_back(0);  // no device buffer is empty
  std::vector<std::byte> bytes(values.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return HostBytes(std::move(bytes));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The out-lists of every vertex, sorted (a CSR's rows are).
struct OutLists {
  const int32_t* row_ptr;
  const int32_t* col_idx;
  int32_t n;
  // Whether v -> u is an edge too.
  bool reversed(int32_t u, int32_t v) const {
    return std::binary_search(col_idx + row_ptr[v], col_idx + row_ptr[v + 1], u);
  }
  // visit(u, v, e) for every entry e, u -> v.
  template <typename Visit>
  void each_edge(Visit&& visit) const {
    for (int32_t u = 0; u < n; ++u)
      for (int32_t k = row_ptr[u]; k < row_ptr[u + 1]; ++k) visit(u, col_idx[k], k);
  }
};

OutLists out_lists(const GraphEdges& out, int32_t n) { return {ints(out.row_ptr), ints(out.col_idx), n}; }

// Which entries u -> v have their reverse v -> u, a bit each. Both forms below read it more than
// once, and each answer is a search of v's list: 65 M of them on R-MAT 22, on every core.
struct ReversedEntries {
  std::vector<uint64_t> words;
  bool operator[](int64_t e) const { return (words[static_cast<size_t>(e / 64)] >> (e % 64)) & 1; }
};

std::shared_ptr<const ReversedEntries> reversed_entries(const Workload& w, const OutLists& g) {
  return w.derived.get<ReversedEntries>("cc.reversed", [&g] {
    const int64_t entries = g.row_ptr[g.n];
    ReversedEntries r;
    r.words.assign(static_cast<size_t>((entries + 63) / 64), 0);
    const auto words = static_cast<int64_t>(r.words.size());
    const int parts = worker_count(entries, 1 << 20) * 4;
    // Each part owns whole words: no two write one.
    parallel_for(parts, worker_count(entries, 1 << 20), [&](int part) {
      const int64_t first = part_begin(words, parts, part) * 64;
      const int64_t last = std::min(entries, part_begin(words, parts, part + 1) * 64);
      if (first >= last) return;
      auto u = static_cast<int32_t>(std::upper_bound(g.row_ptr, g.row_ptr + g.n + 1, first) - g.row_ptr - 1);
      for (int64_t e = first; e < last; ++e) {
        while (g.row_ptr[u + 1] <= e) ++u;
        if (g.reversed(u, g.col_idx[e])) r.words[static_cast<size_t>(e / 64)] |= uint64_t{1} << (e % 64);
      }
    });
    return r;
  });
}

// Zeroed int32 storage for `count` values, at least one (no device buffer is empty), written in
// place: a copy into HostBytes would hold a large list twice.
std::vector<std::byte> int32_storage(int64_t count) {
  return std::vector<std::byte>(static_cast<size_t>(std::max<int64_t>(count, 1)) * sizeof(int32_t));
}
int32_t* as_ints(std::vector<std::byte>& bytes) { return reinterpret_cast<int32_t*>(bytes.data()); }

// A CSR over n vertices of the entries `keep` passes, each at (row_of, col_of), rows sorted.
template <typename Keep, typename RowOf, typename ColOf>
GraphEdges filtered(const OutLists& g, const Keep& keep, const RowOf& row_of, const ColOf& col_of) {
  std::vector<std::byte> row_bytes = int32_storage(int64_t{g.n} + 1);
  int32_t* row_ptr = as_ints(row_bytes);
  g.each_edge([&](int32_t u, int32_t v, int64_t e) {
    if (keep(u, v, e)) ++row_ptr[row_of(u, v) + 1];
  });
  for (int32_t r = 0; r < g.n; ++r) row_ptr[r + 1] += row_ptr[r];
  std::vector<std::byte> col_bytes = int32_storage(row_ptr[g.n]);
  int32_t* col_idx = as_ints(col_bytes);
  std::vector<int32_t> next(row_ptr, row_ptr + g.n);
  g.each_edge([&](int32_t u, int32_t v, int64_t e) {
    if (keep(u, v, e)) col_idx[next[static_cast<size_t>(row_of(u, v))]++] = col_of(u, v);
  });
  for (int32_t r = 0; r < g.n; ++r) std::sort(col_idx + row_ptr[r], col_idx + row_ptr[r + 1]);
  return {HostBytes(std::move(row_bytes)), HostBytes(std::move(col_bytes))};
}

HostBytes chunk_rows(const int32_t* row_ptr, int32_t n, int64_t entries) {
  const int64_t chunks = (entries + kCcChunk - 1) / kCcChunk;
  std::vector<int32_t> rows(static_cast<size_t>(chunks) + 1, 0);
  int32_t last_row = 0;
  for (int32_t r = 0; r < n; ++r) {
    if (row_ptr[r + 1] == row_ptr[r]) continue;
    last_row = r;
    for (int64_t c = (row_ptr[r] + kCcChunk - 1) / kCcChunk; c * kCcChunk < row_ptr[r + 1]; ++c)
      rows[static_cast<size_t>(c)] = r;
  }
  rows[static_cast<size_t>(chunks)] = last_row;
  return int32_bytes(std::move(rows));
}

}  // namespace

CcNeighbours cc_neighbours(const Workload& w) {
  CcNeighbours neighbours;
  neighbours.out = graph_out_edges(w);
  neighbours.rest = w.derived.get<GraphEdges>("cc.in_rest", [&w, out = neighbours.out] {
    const auto start = std::chrono::steady_clock::now();
    const OutLists g = out_lists(*out, vertex_count(w.matrix));
    const std::shared_ptr<const ReversedEntries> reversed = reversed_entries(w, g);
    // u -> v without v -> u: u is an in-neighbour of v that v's out-list lacks.
    GraphEdges rest = filtered(
        g, [&](int32_t u, int32_t v, int64_t e) { return u != v && !(*reversed)[e]; },
        [](int32_t, int32_t v) { return v; }, [](int32_t u, int32_t) { return u; });
    rest.build_seconds = seconds_since(start);
    return rest;
  });
  neighbours.both_ways = ints(neighbours.rest->row_ptr)[vertex_count(w.matrix)] > 0;
  return neighbours;
}

std::shared_ptr<const CcEdgeList> cc_edge_list(const Workload& w) {
  return w.derived.get<CcEdgeList>("cc.edge_list", [&w] {
    const auto start = std::chrono::steady_clock::now();
    const std::shared_ptr<const GraphEdges> out = graph_out_edges(w);
    const int32_t n = vertex_count(w.matrix);
    const OutLists g = out_lists(*out, n);
    // Each undirected edge once: no self-loop, and of a pair stored both ways the entry from its
    // smaller end.
    const std::shared_ptr<const ReversedEntries> reversed = reversed_entries(w, g);
    const auto once = [&](int32_t u, int32_t v, int64_t e) { return u != v && (u < v || !(*reversed)[e]); };
    int64_t dropped = 0;
    g.each_edge([&](int32_t u, int32_t v, int64_t e) { dropped += !once(u, v, e); });
    const int64_t entries = g.row_ptr[n];
    CcEdgeList list;
    if (dropped * 8 < entries) {
      list.row_ptr = out->row_ptr;
      list.col_idx = out->col_idx;
    } else {
      // Each edge in the row of its smaller end: the upper triangle's order, which a symmetric
      // graph's list has anyway and the pair list had.
      GraphEdges kept = filtered(
          g, once, [](int32_t u, int32_t v) { return std::min(u, v); },
          [](int32_t u, int32_t v) { return std::max(u, v); });
      list.row_ptr = kept.row_ptr;
      list.col_idx = kept.col_idx;
    }
    list.entries = ints(list.row_ptr)[n];
    list.chunk_row = chunk_rows(ints(list.row_ptr), n, list.entries);
    list.build_seconds = seconds_since(start);
    return list;
  });
}

EntryRows<const int32_t*> entry_rows(const CcEdgeList& list) { return {ints(list.row_ptr), ints(list.chunk_row)}; }

const int32_t* entry_columns(const CcEdgeList& list) { return ints(list.col_idx); }

}  // namespace ktune
