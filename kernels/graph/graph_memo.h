#pragma once
// What an estimate derives from a graph, computed once per graph rather than once per
// configuration: a tune asks the first model about hundreds of configurations of one
// workload, and deriving (an undirected form, in-degrees) costs a pass over every edge.
// Keyed by the arrays' addresses and sizes: the workload a tune holds does not move. A
// different graph at the same address with the same sizes would get a stale digest, which
// only skews an estimate; nothing checked against a reference reads it.
#include <functional>
#include <memory>
#include <mutex>
#include <tuple>

#include "workload/csr_matrix.h"

namespace ktune {

template <typename Digest>
class GraphMemo {
 public:
  std::shared_ptr<const Digest> get(const CsrF64& graph, const std::function<Digest(const CsrF64&)>& derive) const {
    const Key key{graph.row_ptr.data(), graph.col_idx.data(), graph.rows, graph.cols, graph.nnz()};
    std::lock_guard<std::mutex> lock(mutex_);
    if (!digest_ || key != key_) {
      digest_ = std::make_shared<const Digest>(derive(graph));
      key_ = key;
    }
    return digest_;
  }

 private:
  using Key = std::tuple<const int32_t*, const int32_t*, int32_t, int32_t, int64_t>;
  mutable std::mutex mutex_;
  mutable Key key_{};
  mutable std::shared_ptr<const Digest> digest_;
};

}  // namespace ktune
