#pragma once
// What connected components read of a graph: every edge taken both ways (weakly connected
// components of a directed graph), without building the union (twice the graph) or a list of
// edge pairs (twice again): on R-MAT 22 those, built beside each other, peaked at 7x the graph.
// A vertex's neighbours are its out-list and the rest of its in-list (in-neighbours that are not
// out-neighbours; none on a symmetric graph): the union, each neighbour once. The edge schedule's
// list is the graph's entries less the self-loops and, of a pair stored both ways, the entry
// from the larger end (a symmetric graph's upper triangle): each undirected edge once. Where
// those would drop under an eighth of the entries the graph's own entries serve instead, no copy,
// and the few pairs stored both ways are linked twice (harmless: 1.7% of R-MAT 22's edges).
#include <cstdint>
#include <memory>

#include "kernels/graph/graph_inputs.h"
#include "workload/workload.h"

namespace ktune {

struct CcNeighbours {
  std::shared_ptr<const GraphEdges> out;
  std::shared_ptr<const GraphEdges> rest;  // the in-neighbours not among the out-neighbours
  bool both_ways = true;                   // false: `rest` is empty (a symmetric graph)
};
CcNeighbours cc_neighbours(const Workload& w);

// The edge schedule's edges: the entries of a CSR over every vertex (entry e is the edge
// (row of e, col_idx[e])), with the row of every kCcChunk-th entry, from which a thread finds its
// entry's row by a short search instead of reading a second array as long as the first.
inline constexpr int32_t kCcChunk = 32;
struct CcEdgeList {
  HostBytes row_ptr;    // int32, vertex_count + 1
  HostBytes col_idx;    // int32, at least one entry (unread when there are none)
  HostBytes chunk_row;  // int32: the row of entry c * kCcChunk, then the row of the last entry
  int64_t entries = 0;
  double build_seconds = 0;
};
std::shared_ptr<const CcEdgeList> cc_edge_list(const Workload& w);

// The row of entry e: the largest row r between the rows of its chunk's first entry and the next
// chunk's (or the last entry) with row_ptr[r] <= e. cc_edge.cu's search, over any arrays with
// operator[].
template <typename RowPtr, typename ChunkRow>
int32_t row_of_entry(const RowPtr& row_ptr, const ChunkRow& chunk_row, int64_t e) {
  int32_t lo = chunk_row[e / kCcChunk], hi = chunk_row[e / kCcChunk + 1];
  while (lo < hi) {
    const int32_t mid = lo + (hi - lo + 1) / 2;
    if (row_ptr[mid] <= e)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// The rows of an edge list's entries as an array indexed by entry (the union-find rounds' input),
// over the list's own arrays or a plan's (the twin's).
template <typename Array>
struct EntryRows {
  Array row_ptr;
  Array chunk_row;
  int32_t operator[](int64_t e) const { return row_of_entry(row_ptr, chunk_row, e); }
};
EntryRows<const int32_t*> entry_rows(const CcEdgeList& list);
const int32_t* entry_columns(const CcEdgeList& list);

}  // namespace ktune
