// The graph signature on real graphs (data/graphs): what nearest-neighbour reuse needs is that
// a road network stands nearer a mesh than a social network, and social networks nearer each
// other than a road network.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "workload/matrix_market.h"
#include "workload/signature.h"

namespace ktune {
namespace {

const Signature& graph_signature(const std::string& name) {
  static std::map<std::string, Signature> signatures;
  auto it = signatures.find(name);
  if (it == signatures.end()) {
    const std::string path = std::string(KTUNE_SOURCE_DIR) + "/data/graphs/" + name + ".mtx.gz";
    it = signatures.emplace(name, compute_signature(read_matrix_market_file(path, ReadLimits{}), WorkloadKind::Graph))
             .first;
  }
  return it->second;
}

double distance(const std::string& a, const std::string& b) {
  return signature_distance(graph_signature(a).vector, graph_signature(b).vector);
}

TEST(RealGraphSignatures, ARoadNetworkIsDeepAndThinASocialNetworkShallowAndWide) {
  const GraphFeatures& road = *graph_signature("usroads").features.graph;
  const GraphFeatures& social = *graph_signature("musae-github").features.graph;
  EXPECT_FALSE(road.directed);
  EXPECT_FALSE(social.directed);
  EXPECT_GT(road.diameter_estimate, 10 * social.diameter_estimate);
  EXPECT_GT(social.frontier_peak, 10 * road.frontier_peak);
  EXPECT_TRUE(graph_signature("soc-Slashdot0902").features.graph->directed);
}

TEST(RealGraphSignatures, ARoadNetworkFindsTheMeshAndSocialNetworksFindEachOther) {
  for (const char* social : {"musae-github", "soc-Slashdot0902", "pubmed"})
    EXPECT_LT(distance("usroads", "4elt"), distance("usroads", social)) << social;
  EXPECT_LT(distance("musae-github", "soc-Slashdot0902"), distance("musae-github", "usroads"));
  EXPECT_LT(distance("musae-github", "soc-Slashdot0902"), distance("musae-github", "4elt"));
}

}  // namespace
}  // namespace ktune
