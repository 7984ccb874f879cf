#pragma once
// A workload's signature (DESIGN.md, "Signatures"): an exact hash for identical matrices
// and a feature vector for the nearest tuned neighbour.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "workload/csr_matrix.h"
#include "workload/matrix_features.h"
#include "workload/workload.h"

namespace ktune {

struct Signature {
  std::string exact;  // SHA-256 hex of kind, shape, row pointers and column indices
  MatrixFeatures features;
  std::vector<double> vector;  // feature_vector(features)

  nlohmann::json to_json() const;  // {"exact", "features", "vector"}
};

// Values are not hashed: they do not change which configuration is fastest. A graph's
// features include its traversal features (workload/graph_features.h).
Signature compute_signature(const CsrF64& matrix, WorkloadKind kind);
// Signature::exact alone, without the features: a client's lookup of an answer stored for this
// very matrix needs nothing more, and the hash is a fraction of the features' cost.
std::string exact_signature(const CsrF64& matrix, WorkloadKind kind);

// A dense workload's signature: a hash of its shape (the canonical text of its problem) and no
// features, so that nearest-neighbour reuse compares shapes by their problems alone.
Signature dense_signature(const std::string& shape);

// Weighted Euclidean distance between two feature vectors (feature_vector_weights() of the
// layout their length names); InputError when their lengths differ from each other or from
// today's layouts.
double signature_distance(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace ktune
