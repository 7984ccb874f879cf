#include "kernels/bfs/bfs_verify.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace ktune {

namespace {

std::vector<int32_t> ints_of(std::string_view bytes) {
  std::vector<int32_t> out(bytes.size() / sizeof(int32_t));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(int32_t));
  return out;
}

// Depths from a parent tree (-1: unreached): each vertex one below its parent, the root at 0.
std::vector<int32_t> depths_of_tree(const std::vector<int32_t>& parent) {
  const size_t n = parent.size();
  std::vector<int32_t> depth(n, -2);  // -2: not worked out yet
  std::vector<int32_t> path;
  for (size_t start = 0; start < n; ++start) {
    int32_t v = static_cast<int32_t>(start);
    while (depth[static_cast<size_t>(v)] == -2) {
      const int32_t p = parent[static_cast<size_t>(v)];
      if (p < 0) {
        depth[static_cast<size_t>(v)] = -1;
      } else if (p == v) {
        depth[static_cast<size_t>(v)] = 0;
      } else {
        path.push_back(v);
        v = p;
        continue;
      }
    }
    for (; !path.empty(); path.pop_back()) {
      const int32_t p = parent[static_cast<size_t>(path.back())];
      depth[static_cast<size_t>(path.back())] = depth[static_cast<size_t>(p)] + 1;
    }
  }
  return depth;
}

}  // namespace

Verdict check_bfs_parents(std::string_view got, const std::vector<double>& expected, const CheckData& data) {
  Verdict v;
  if (std::string why = output_size_problem(got, Dtype::I32, expected.size()); !why.empty()) {
    v.message = why;
    return v;
  }
  const auto row_ptr_bytes = data.find("row_ptr");
  const auto col_idx_bytes = data.find("col_idx");
  if (row_ptr_bytes == data.end() || col_idx_bytes == data.end() || row_ptr_bytes->second.size() < sizeof(int32_t)) {
    v.message = "the graph to check the parents against is missing";
    return v;
  }
  const std::vector<int32_t> row_ptr = ints_of(row_ptr_bytes->second);
  std::vector<int32_t> col_idx = ints_of(col_idx_bytes->second);
  const size_t n = row_ptr.size() - 1;
  if (n == 0 || expected.size() % n != 0) {
    v.message = "the parents hold " + std::to_string(expected.size()) + " values, not a row of " + std::to_string(n) +
                " per source";
    return v;
  }
  // Each vertex's out-neighbours sorted, to look an edge up by binary search.
  for (size_t u = 0; u < n; ++u) std::sort(col_idx.begin() + row_ptr[u], col_idx.begin() + row_ptr[u + 1]);
  const auto has_edge = [&](int32_t u, int32_t w) {
    return std::binary_search(col_idx.begin() + row_ptr[static_cast<size_t>(u)],
                              col_idx.begin() + row_ptr[static_cast<size_t>(u) + 1], w);
  };
  const std::vector<int32_t> parents = ints_of(got);
  for (size_t row = 0; row * n < expected.size(); ++row) {
    std::vector<int32_t> reference(n);
    for (size_t i = 0; i < n; ++i) reference[i] = static_cast<int32_t>(expected[row * n + i]);
    const std::vector<int32_t> depth = depths_of_tree(reference);
    for (size_t i = 0; i < n; ++i) {
      const int32_t p = parents[row * n + i];
      const int32_t w = static_cast<int32_t>(i);
      std::string why;
      if (depth[i] < 0) {
        if (p != -1) why = "is unreached but has parent " + std::to_string(p);
      } else if (depth[i] == 0) {
        if (p != w) why = "is the source but has parent " + std::to_string(p);
      } else if (p < 0 || static_cast<size_t>(p) >= n) {
        why = "is reached at depth " + std::to_string(depth[i]) + " but has parent " + std::to_string(p);
      } else if (depth[static_cast<size_t>(p)] != depth[i] - 1) {
        why = "at depth " + std::to_string(depth[i]) + " has parent " + std::to_string(p) + " at depth " +
              std::to_string(depth[static_cast<size_t>(p)]);
      } else if (!has_edge(p, w)) {
        why = "has parent " + std::to_string(p) + ", but the graph has no edge " + std::to_string(p) + "→" +
              std::to_string(w);
      }
      if (why.empty()) continue;
      if (v.bad_elements++ == 0)
        v.message = "sources[" + std::to_string(row) + "]: vertex " + std::to_string(w) + " " + why;
    }
  }
  v.ok = v.bad_elements == 0;
  if (!v.ok) v.message += " (" + std::to_string(v.bad_elements) + " wrong parents)";
  return v;
}

}  // namespace ktune
