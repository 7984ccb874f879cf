// The in-memory answer store behind GET /v1/configs: exact keys, and the nearest neighbour
// within the distance limit for the same kernel, dtype and device only.
#include "server/config_lookup.h"

#include <gtest/gtest.h>

#include "workload/matrix_features.h"

namespace ktune {
namespace {

// A feature vector of this version's length whose first entries are `head`.
std::vector<double> features(std::vector<double> head) {
  std::vector<double> v(feature_vector_names().size(), 1.0);
  std::copy(head.begin(), head.end(), v.begin());
  return v;
}

StoredAnswer stored(const std::string& sig, std::vector<double> head, const std::string& dtype = "f32") {
  return {"spmv", dtype, "dev", sig, features(std::move(head)), {{"config_key", sig}}};
}

TEST(ConfigLookup, ExactHitsByFullKey) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("a", {1, 2, 3}));
  ASSERT_NE(lookup.exact("spmv", "f32", "dev", "a"), nullptr);
  EXPECT_EQ(lookup.exact("spmv", "f32", "dev", "a")->answer["config_key"], "a");
  EXPECT_EQ(lookup.exact("spmv", "f64", "dev", "a"), nullptr);
  EXPECT_EQ(lookup.exact("spmv", "f32", "other", "a"), nullptr);
  EXPECT_EQ(lookup.exact("spmv", "f32", "dev", "b"), nullptr);
}

TEST(ConfigLookup, RememberReplacesTheAnswerForAKey) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("a", {1, 2, 3}));
  StoredAnswer newer = stored("a", {1, 2, 3});
  newer.answer["config_key"] = "newer";
  lookup.remember(newer);
  EXPECT_EQ(lookup.size(), 1u);
  EXPECT_EQ(lookup.exact("spmv", "f32", "dev", "a")->answer["config_key"], "newer");
}

TEST(ConfigLookup, NearestIsTheClosestWithinTheLimit) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("far", {5, 5, 5}));
  lookup.remember(stored("near", {1, 2, 3.5}));
  lookup.remember(stored("nearer", {1, 2, 3.2}));
  lookup.remember(stored("other-dtype", {1, 2, 3}, "f64"));
  const auto hit = lookup.nearest("spmv", "f32", "dev", features({1, 2, 3}));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->stored->signature, "nearer");
  EXPECT_GT(hit->distance, 0.0);
  EXPECT_FALSE(lookup.nearest("spmv", "f32", "dev", features({9, 9, 9}))) << "beyond the limit";
  EXPECT_FALSE(lookup.nearest("spmv", "f32", "dev", {1, 2, 3})) << "vectors of another length never match";
}

}  // namespace
}  // namespace ktune
