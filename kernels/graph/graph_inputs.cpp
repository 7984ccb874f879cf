#include "kernels/graph/graph_inputs.h"

#include <chrono>
#include <cstring>

#include "kernels/graph/graph_transpose.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

HostBytes int32_bytes(const int32_t* data, size_t count) {
  std::vector<std::byte> bytes(std::max<size_t>(count, 1) * sizeof(int32_t));  // zeros: one unread index
  if (count > 0) std::memcpy(bytes.data(), data, count * sizeof(int32_t));
  return HostBytes(std::move(bytes));
}

// Row pointers over every vertex: the CSR's own when it has a row for each (no copy), else
// continued flat past its last row.
HostBytes row_ptr_over_vertices(const Workload& w) {
  const CsrF64& graph = w.matrix;
  const size_t entries = static_cast<size_t>(vertex_count(graph)) + 1;
  if (graph.row_ptr.size() == entries)
    return HostBytes::borrowed(graph.row_ptr.data(), entries * sizeof(int32_t), w.arrays_owner());
  std::vector<int32_t> row_ptr(graph.row_ptr.begin(), graph.row_ptr.end());
  row_ptr.resize(entries, graph.row_ptr.empty() ? 0 : graph.row_ptr.back());
  return int32_bytes(row_ptr.data(), row_ptr.size());
}

// The CSR's own columns (no copy), or one unread index for a graph without edges.
HostBytes columns(const Workload& w) {
  const std::vector<int32_t>& col_idx = w.matrix.col_idx;
  if (col_idx.empty()) return int32_bytes(nullptr, 0);
  return HostBytes::borrowed(col_idx.data(), col_idx.size() * sizeof(int32_t), w.arrays_owner());
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<DeviceBuffer> GraphEdges::buffers(const std::string& row_ptr_name, const std::string& col_idx_name) const {
  return {{row_ptr_name, row_ptr, row_ptr.size()}, {col_idx_name, col_idx, col_idx.size()}};
}

std::shared_ptr<const DerivedInputs> derived_inputs(const Workload& w, const std::string& key,
                                                    const std::function<std::vector<DeviceBuffer>()>& build) {
  return w.derived.get<DerivedInputs>(key, [&build] {
    const auto start = std::chrono::steady_clock::now();
    DerivedInputs in{build(), 0};
    in.build_seconds = seconds_since(start);
    return in;
  });
}

std::shared_ptr<const GraphEdges> graph_out_edges(const Workload& w) {
  return w.derived.get<GraphEdges>("graph.out_edges", [&w] {
    const auto start = std::chrono::steady_clock::now();
    GraphEdges e{row_ptr_over_vertices(w), columns(w)};
    e.build_seconds = seconds_since(start);
    return e;
  });
}

std::shared_ptr<const GraphEdges> graph_in_edges(const Workload& w) {
  return w.derived.get<GraphEdges>("graph.in_edges", [&w] {
    const auto start = std::chrono::steady_clock::now();
    const std::shared_ptr<const GraphEdges> out = graph_out_edges(w);
    // Written straight into the bytes the plans share: no second copy of the transpose.
    std::vector<std::byte> row_ptr(out->row_ptr.size()), col_idx(out->col_idx.size());
    transpose_graph_into(w.matrix, reinterpret_cast<int32_t*>(row_ptr.data()),
                         reinterpret_cast<int32_t*>(col_idx.data()));
    const bool own_transpose = std::memcmp(row_ptr.data(), out->row_ptr.data(), row_ptr.size()) == 0 &&
                               std::memcmp(col_idx.data(), out->col_idx.data(), col_idx.size()) == 0;
    GraphEdges e = own_transpose ? *out : GraphEdges{HostBytes(std::move(row_ptr)), HostBytes(std::move(col_idx))};
    e.build_seconds = seconds_since(start);
    return e;
  });
}

}  // namespace ktune
