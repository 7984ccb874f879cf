#include "kernels/graph/graph_inputs.h"

#include "kernels/device_buffers.h"
#include "kernels/graph/graph_transpose.h"
#include "workload/breadth_first.h"

namespace ktune {

namespace {

std::vector<int32_t> row_ptr_over_vertices(const CsrF64& graph) {
  std::vector<int32_t> row_ptr(graph.row_ptr.begin(), graph.row_ptr.end());
  if (row_ptr.empty()) row_ptr.push_back(0);
  row_ptr.resize(static_cast<size_t>(vertex_count(graph)) + 1, row_ptr.back());
  return row_ptr;
}

std::vector<int32_t> at_least_one(std::vector<int32_t> indices) {
  if (indices.empty()) indices.push_back(0);
  return indices;
}

DeviceBuffer renamed(DeviceBuffer b, std::string name) {
  b.name = std::move(name);
  return b;
}

}  // namespace

std::vector<DeviceBuffer> graph_out_edges(const CsrF64& graph) {
  return {index_buffer("row_ptr", row_ptr_over_vertices(graph)), index_buffer("col_idx", at_least_one(graph.col_idx))};
}

std::vector<DeviceBuffer> graph_in_edges(const CsrF64& graph, const std::vector<DeviceBuffer>& out_edges) {
  const CsrF64 in = transpose_graph(graph);
  if (in.row_ptr == row_ptr_over_vertices(graph) && in.col_idx == graph.col_idx)
    return {renamed(out_edges.at(0), "in_row_ptr"), renamed(out_edges.at(1), "in_col_idx")};
  return {index_buffer("in_row_ptr", in.row_ptr), index_buffer("in_col_idx", at_least_one(in.col_idx))};
}

}  // namespace ktune
