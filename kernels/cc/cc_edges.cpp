#include "kernels/cc/cc_edges.h"

#include <chrono>
#include <cstring>
#include <tuple>
#include <vector>

#include "workload/breadth_first.h"

namespace ktune {

namespace {

const int32_t* ints(const HostBytes& bytes) { return reinterpret_cast<const int32_t*>(bytes.data()); }

HostBytes int32_bytes(std::vector<int32_t> values) {
  if (values.empty()) values.push_back(0);  // no device buffer is empty
  std::vector<std::byte> bytes(values.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return HostBytes(std::move(bytes));
}

// A symmetric graph's upper triangle (col > row): each undirected edge once, self-loops dropped.
std::pair<HostBytes, HostBytes> upper_triangle(const GraphEdges& out, int32_t n) {
  const int32_t* row_ptr = ints(out.row_ptr);
  const int32_t* col_idx = ints(out.col_idx);
  std::vector<int32_t> upper_ptr(static_cast<size_t>(n) + 1, 0);
  std::vector<int32_t> upper_col;
  upper_col.reserve(static_cast<size_t>(row_ptr[n]) / 2);
  for (int32_t r = 0; r < n; ++r) {
    for (int32_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      if (col_idx[k] > r) upper_col.push_back(col_idx[k]);
    upper_ptr[static_cast<size_t>(r) + 1] = static_cast<int32_t>(upper_col.size());
  }
  return {int32_bytes(std::move(upper_ptr)), int32_bytes(std::move(upper_col))};
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
  CcNeighbours n{graph_out_edges(w), graph_in_edges(w)};
  n.both_ways = n.in->col_idx.data() != n.out->col_idx.data();
  return n;
}

std::shared_ptr<const CcEdgeList> cc_edge_list(const Workload& w) {
  return w.derived.get<CcEdgeList>("cc.edge_list", [&w] {
    const auto start = std::chrono::steady_clock::now();
    const CcNeighbours neighbours = cc_neighbours(w);
    const int32_t n = vertex_count(w.matrix);
    CcEdgeList list;
    if (neighbours.both_ways) {
      list.row_ptr = neighbours.out->row_ptr;
      list.col_idx = neighbours.out->col_idx;
    } else {
      std::tie(list.row_ptr, list.col_idx) = upper_triangle(*neighbours.out, n);
    }
    list.entries = ints(list.row_ptr)[n];
    list.chunk_row = chunk_rows(ints(list.row_ptr), n, list.entries);
    list.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return list;
  });
}

EntryRows entry_rows(const CcEdgeList& list) { return {ints(list.row_ptr), ints(list.chunk_row)}; }

const int32_t* entry_columns(const CcEdgeList& list) { return ints(list.col_idx); }

}  // namespace ktune
