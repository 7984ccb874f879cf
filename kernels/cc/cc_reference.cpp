#include "kernels/cc/cc_reference.h"

#include <numeric>
#include <string>

#include "workload/breadth_first.h"

namespace ktune {

namespace {

int32_t find_root(std::vector<int32_t>& parent, int32_t v) {
  while (parent[static_cast<size_t>(v)] != v) {
    parent[static_cast<size_t>(v)] = parent[static_cast<size_t>(parent[static_cast<size_t>(v)])];  // halving
    v = parent[static_cast<size_t>(v)];
  }
  return v;
}

Verdict failure(std::string message, int64_t bad, size_t n) {
  Verdict v;
  v.message = std::move(message) + "; " + std::to_string(bad) + " of " + std::to_string(n) + " wrong";
  v.bad_elements = bad;
  return v;
}

}  // namespace

std::vector<int32_t> cc_reference(const CsrF64& graph) {
  const int32_t n = vertex_count(graph);
  std::vector<int32_t> parent(static_cast<size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  for (int32_t u = 0; u < graph.rows; ++u)
    for (int32_t k = graph.row_ptr[u]; k < graph.row_ptr[u + 1]; ++k) {
      const int32_t a = find_root(parent, u);
      const int32_t b = find_root(parent, graph.col_idx[static_cast<size_t>(k)]);
      // The smaller root stays a root: every root is its component's smallest vertex.
      if (a < b) parent[static_cast<size_t>(b)] = a;
      if (b < a) parent[static_cast<size_t>(a)] = b;
    }
  std::vector<int32_t> labels(static_cast<size_t>(n));
  for (int32_t v = 0; v < n; ++v) labels[static_cast<size_t>(v)] = find_root(parent, v);
  return labels;
}

Verdict check_same_partition(std::string_view output, Dtype dtype, const std::vector<double>& reference) {
  const size_t n = reference.size();
  if (std::string why = output_size_problem(output, dtype, n); !why.empty() || dtype != Dtype::I32) {
    Verdict v;
    v.message = why.empty() ? "component labels are i32" : why;
    return v;
  }
  // The got label of each reference component, and the reference component of each got label:
  // both must be functions for the two partitions to be one.
  std::vector<int64_t> got_of_component(n, -1), component_of_got(n, -1);
  int64_t bad = 0;
  std::string first;
  for (size_t i = 0; i < n; ++i) {
    const double got = output_element(output, dtype, i);
    const auto component = static_cast<size_t>(reference[i]);
    std::string why;
    if (!(got >= 0 && got < static_cast<double>(n))) {
      why = "vertex " + std::to_string(i) + " has label " + std::to_string(static_cast<int64_t>(got)) +
            ", not a vertex id (0.." + std::to_string(n - 1) + "): the kernel did not write it";
    } else {
      const auto label = static_cast<size_t>(got);
      if (got_of_component[component] < 0) got_of_component[component] = static_cast<int64_t>(label);
      if (component_of_got[label] < 0) component_of_got[label] = static_cast<int64_t>(component);
      if (got_of_component[component] != static_cast<int64_t>(label))
        why = "vertex " + std::to_string(i) + " has label " + std::to_string(label) + ", others of its component " +
              std::to_string(got_of_component[component]) + ": one component split in two";
      else if (component_of_got[label] != static_cast<int64_t>(component))
        why = "vertex " + std::to_string(i) + " shares label " + std::to_string(label) +
              " with a vertex of another component: two components merged";
    }
    if (!why.empty() && bad++ == 0) first = why;
  }
  if (bad > 0) return failure(first, bad, n);
  Verdict ok;
  ok.ok = true;
  return ok;
}

}  // namespace ktune
