#include "workload/signature.h"

#include <cmath>
#include <optional>

#include "workload/input_error.h"
#include "workload/sha256.h"

namespace ktune {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the exact signature hashes index arrays as little-endian bytes");

const char* kind_name(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::Graph: return "graph";
    case WorkloadKind::Dense: return "dense";
    default: return "sparse_matrix";
  }
}

std::string exact_hash(const CsrF64& m, WorkloadKind kind) {
  Sha256 hash;
  // A versioned text header: a change of layout must never collide with an old hash.
  hash.update("ktune-csr-v1 kind=" + std::string(kind_name(kind)) +
              " rows=" + std::to_string(m.rows) + " cols=" + std::to_string(m.cols) +
              " nnz=" + std::to_string(m.nnz()) + "\n");
  hash.update(m.row_ptr.data(), m.row_ptr.size() * sizeof(int32_t));
  hash.update(m.col_idx.data(), m.col_idx.size() * sizeof(int32_t));
  return hash.hex_digest();
}

}  // namespace

nlohmann::json Signature::to_json() const {
  return {{"exact", exact}, {"features", features_to_json(features)}, {"vector", vector}};
}

Signature compute_signature(const CsrF64& matrix, WorkloadKind kind) {
  Signature s;
  std::optional<GraphFeatures> graph;
  s.features = compute_features(matrix, [&] {
    s.exact = exact_hash(matrix, kind);
    if (kind == WorkloadKind::Graph) graph = compute_graph_features(matrix);
  });
  s.features.graph = std::move(graph);
  s.vector = feature_vector(s.features);
  return s;
}

std::string exact_signature(const CsrF64& matrix, WorkloadKind kind) { return exact_hash(matrix, kind); }

Signature dense_signature(const std::string& shape) {
  Signature s;
  s.exact = sha256_hex("ktune-dense-v1\n" + shape);
  return s;
}

double signature_distance(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() && b.empty()) return 0;  // dense workloads: their problems tell them apart
  const size_t matrix_length = feature_vector_weights(WorkloadKind::SparseMatrix).size();
  const size_t graph_length = feature_vector_weights(WorkloadKind::Graph).size();
  if (a.size() != b.size() || (a.size() != matrix_length && a.size() != graph_length)) {
    throw InputError("feature vectors of " + std::to_string(a.size()) + " and " +
                     std::to_string(b.size()) + " values cannot be compared; this version uses " +
                     std::to_string(matrix_length) + " (matrices) or " + std::to_string(graph_length) +
                     " (graphs)");
  }
  const std::vector<double>& weights =
      feature_vector_weights(a.size() == graph_length ? WorkloadKind::Graph : WorkloadKind::SparseMatrix);
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += weights[i] * (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum);
}

}  // namespace ktune
