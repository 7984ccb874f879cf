#include "kernels/pagerank/pagerank_twins.h"

#include <cmath>

#include "kernels/launch_twin.h"

namespace ktune {

namespace {

// Each launch's first argument is its item count (pagerank_family.cpp's pagerank_launches); a
// rank update's last three are base, damping and 1 / n (pagerank_common.cuh's next_rank).
int32_t items_of(const LaunchStep& step) { return scalar_arg<int32_t>(step, 0); }

template <typename V>
struct Update {
  V base, damping, inverse_n;
  explicit Update(const LaunchStep& step)
      : base(scalar_arg<V>(step, step.args.size() - 3)),
        damping(scalar_arg<V>(step, step.args.size() - 2)),
        inverse_n(scalar_arg<V>(step, step.args.size() - 1)) {}
  V rank(V gathered, V dangling) const { return base + damping * (gathered + dangling * inverse_n); }
};

template <typename V>
void init(const LaunchStep& step, PlanMemory& memory) {
  HostArray<V> rank(memory, "rank");
  const int32_t n = items_of(step);
  for (int32_t v = 0; v < n; ++v) rank.set(v, V(1) / V(n));
}

template <typename V>
void contrib(const LaunchStep& step, PlanMemory& memory) {
  HostArray<const int32_t> out_degree(memory, "out_degree");
  HostArray<const V> rank(memory, "rank");
  HostArray<V> contrib(memory, "contrib"), sums(memory, "sums");
  V dangling = 0;
  for (int32_t u = 0, n = items_of(step); u < n; ++u) {
    const int32_t degree = out_degree[u];
    contrib.set(u, degree > 0 ? rank[u] / V(degree) : V(0));
    if (degree == 0) dangling += rank[u];
  }
  sums.set(0, sums[0] + dangling);
}

template <typename V>
void scatter(const LaunchStep& step, PlanMemory& memory) {
  HostArray<const int32_t> row_ptr(memory, "row_ptr"), col_idx(memory, "col_idx");
  HostArray<const V> rank(memory, "rank");
  HostArray<V> next(memory, "next"), sums(memory, "sums");
  V dangling = 0;
  for (int32_t u = 0, n = items_of(step); u < n; ++u) {
    const int32_t begin = row_ptr[u], end = row_ptr[u + 1];
    if (begin == end) {
      dangling += rank[u];
      continue;
    }
    const V share = rank[u] / V(end - begin);
    for (int32_t i = begin; i < end; ++i) next.set(col_idx[i], next[col_idx[i]] + share);
  }
  sums.set(0, sums[0] + dangling);
}

template <typename V>
void finish(const LaunchStep& step, PlanMemory& memory) {
  HostArray<V> next(memory, "next"), rank(memory, "rank"), sums(memory, "sums");
  const Update<V> update(step);
  V change = 0;
  for (int32_t v = 0, n = items_of(step); v < n; ++v) {
    const V updated = update.rank(next[v], sums[0]);
    change += std::fabs(updated - rank[v]);
    rank.set(v, updated);
    next.set(v, V(0));
  }
  sums.set(1, sums[1] + change);
}

template <typename V>
void pull(const LaunchStep& step, PlanMemory& memory) {
  HostArray<const int32_t> in_ptr(memory, "in_ptr"), in_idx(memory, "in_idx");
  HostArray<const V> contrib(memory, "contrib");
  HostArray<V> rank(memory, "rank"), sums(memory, "sums");
  const Update<V> update(step);
  V change = 0;
  for (int32_t v = 0, n = items_of(step); v < n; ++v) {
    V gathered = 0;
    for (int32_t i = in_ptr[v], end = in_ptr[v + 1]; i < end; ++i) gathered += contrib[in_idx[i]];
    const V updated = update.rank(gathered, sums[0]);
    change += std::fabs(updated - rank[v]);
    rank.set(v, updated);
  }
  sums.set(1, sums[1] + change);
}

// Over edges: `next` is clear before (the fill, then each finish), so every head's sum lands whole.
template <typename V>
void pull_edges(const LaunchStep& step, PlanMemory& memory) {
  HostArray<const int32_t> in_row(memory, "in_row"), in_idx(memory, "in_idx");
  HostArray<const V> contrib(memory, "contrib");
  HostArray<V> next(memory, "next");
  for (int32_t e = 0, m = items_of(step); e < m; ++e) next.set(in_row[e], next[in_row[e]] + contrib[in_idx[e]]);
}

template <typename V>
LaunchTwins twins_of(const PagerankConfig& c) {
  LaunchTwins twins = {{"pagerank_init", init<V>}};
  switch (c.direction) {
    case PagerankDirection::Pull:
      twins["pagerank_contrib"] = contrib<V>;
      twins["pagerank_pull"] = pull<V>;
      break;
    case PagerankDirection::Push:
      twins["pagerank_scatter"] = scatter<V>;
      twins["pagerank_finish"] = finish<V>;
      break;
    case PagerankDirection::PullEdges:
      twins["pagerank_contrib"] = contrib<V>;
      twins["pagerank_pull_edges"] = pull_edges<V>;
      twins["pagerank_finish"] = finish<V>;
      break;
  }
  return twins;
}

}  // namespace

LaunchTwins pagerank_twins(const PagerankConfig& c, Dtype value) {
  return value == Dtype::F64 ? twins_of<double>(c) : twins_of<float>(c);
}

}  // namespace ktune
