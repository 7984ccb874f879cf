#include "workload/graph_features.h"

#include <gtest/gtest.h>

#include <string>

#include "workload/edge_list.h"
#include "workload/generators.h"
#include "workload/input_error.h"
#include "workload/signature.h"

namespace ktune {
namespace {

CsrF64 directed_path(int n) {
  std::string text;
  for (int v = 0; v + 1 < n; ++v) text += std::to_string(v) + " " + std::to_string(v + 1) + "\n";
  return parse_edge_list(std::string_view(text), ReadLimits{}, false);
}

TEST(GraphFeatures, AGridIsUndirectedAndItsDiameterFoundByTheDoubleSweep) {
  // The 5-point stencil's pattern: each vertex to its grid neighbours and itself (loops don't count).
  const int side = 30;
  const GraphFeatures f = compute_graph_features(generate_stencil_2d(side));
  EXPECT_EQ(f.reciprocity, 1.0);
  EXPECT_FALSE(f.directed);
  // From any vertex the farthest is a corner; from a corner, the opposite one.
  EXPECT_EQ(f.diameter_estimate, 2 * (side - 1));
  EXPECT_EQ(f.reach, 1.0);
  EXPECT_EQ(f.traversals, 4);
  EXPECT_LE(f.frontier_peak, 2.0 * side / (side * side));  // a level crosses the grid at most twice
}

TEST(GraphFeatures, APathOneWayIsDirectedAndDeep) {
  const GraphFeatures f = compute_graph_features(directed_path(50));
  EXPECT_EQ(f.reciprocity, 0.0);
  EXPECT_TRUE(f.directed);
  EXPECT_GE(f.diameter_estimate, 1);
  EXPECT_LE(f.diameter_estimate, 49);
  EXPECT_GT(f.reach, 0.0);
  EXPECT_LT(f.reach, 1.0);
}

TEST(GraphFeatures, BothDirectionsListedTraverseAsUndirected) {
  const CsrF64 both = parse_edge_list(std::string_view("0 1\n1 2\n2 3\n"), ReadLimits{}, true);
  const GraphFeatures f = compute_graph_features(both);
  EXPECT_FALSE(f.directed);
  EXPECT_EQ(f.diameter_estimate, 3);
}

TEST(GraphFeatures, AScaleFreeGraphIsShallowAndWideAGridDeepAndThin) {
  const GraphFeatures rmat = compute_graph_features(generate_rmat(14, 16, 1));
  const GraphFeatures grid = compute_graph_features(generate_stencil_2d(128));
  EXPECT_TRUE(rmat.directed);
  EXPECT_LT(rmat.reciprocity, 0.5);
  EXPECT_LT(rmat.diameter_estimate, 20);
  EXPECT_GT(grid.diameter_estimate, 10 * rmat.diameter_estimate);
  EXPECT_GT(rmat.frontier_peak, 20 * grid.frontier_peak);
}

TEST(GraphFeatures, AGraphWithoutEdgesHasNoTraversals) {
  const GraphFeatures f = compute_graph_features(CsrF64{3, 3, {0, 0, 0, 0}, {}, {}});
  EXPECT_EQ(f.traversals, 0);
  EXPECT_EQ(f.diameter_estimate, 0);
  EXPECT_FALSE(f.directed);
}

TEST(GraphSignature, GraphsCarryTheirFeaturesMatricesDoNot) {
  const CsrF64 g = generate_rmat(10, 8, 2);
  const Signature graph = compute_signature(g, WorkloadKind::Graph);
  const Signature matrix = compute_signature(g, WorkloadKind::SparseMatrix);
  ASSERT_TRUE(graph.features.graph.has_value());
  EXPECT_EQ(*graph.features.graph, compute_graph_features(g));
  EXPECT_FALSE(matrix.features.graph.has_value());
  EXPECT_EQ(graph.vector.size(), feature_vector_names(WorkloadKind::Graph).size());
  EXPECT_EQ(matrix.vector.size(), feature_vector_names(WorkloadKind::SparseMatrix).size());
  // The graph's layout is the matrix's with the graph features after it.
  const auto& graph_names = feature_vector_names(WorkloadKind::Graph);
  const auto& matrix_names = feature_vector_names(WorkloadKind::SparseMatrix);
  EXPECT_TRUE(std::equal(matrix_names.begin(), matrix_names.end(), graph_names.begin()));
  EXPECT_EQ(graph_names.back(), "frontier_peak");
  EXPECT_EQ(feature_vector_weights(WorkloadKind::Graph).size(), graph_names.size());
  EXPECT_EQ(std::vector<double>(graph.vector.begin(), graph.vector.begin() + static_cast<long>(matrix.vector.size())),
            matrix.vector);
}

TEST(GraphSignature, GraphsCompareWithGraphsOnly) {
  const Signature rmat = compute_signature(generate_rmat(12, 8, 1), WorkloadKind::Graph);
  const Signature rmat_again = compute_signature(generate_rmat(12, 8, 2), WorkloadKind::Graph);
  const Signature grid = compute_signature(generate_stencil_2d(64), WorkloadKind::Graph);
  EXPECT_EQ(signature_distance(rmat.vector, rmat.vector), 0.0);
  EXPECT_LT(signature_distance(rmat.vector, rmat_again.vector), 0.5);
  EXPECT_GT(signature_distance(rmat.vector, grid.vector), 2.0);
  const Signature matrix = compute_signature(generate_rmat(12, 8, 1), WorkloadKind::SparseMatrix);
  EXPECT_THROW(signature_distance(rmat.vector, matrix.vector), InputError);
}

TEST(GraphSignature, FeaturesRoundTripThroughJsonWithOrWithoutTheGraphPart) {
  const Signature graph = compute_signature(generate_rmat(9, 4, 5), WorkloadKind::Graph);
  const nlohmann::json j = features_to_json(graph.features);
  ASSERT_TRUE(j.contains("graph"));
  EXPECT_EQ(j["graph"]["traversals"], graph.features.graph->traversals);
  EXPECT_EQ(features_from_json(nlohmann::json::parse(j.dump())), graph.features);
  // Stored before graphs had features: read as a matrix's.
  nlohmann::json before = j;
  before.erase("graph");
  EXPECT_FALSE(features_from_json(before).graph.has_value());
  nlohmann::json damaged = j;
  damaged["graph"].erase("reach");
  EXPECT_THROW(features_from_json(damaged), InputError);
}

}  // namespace
}  // namespace ktune
