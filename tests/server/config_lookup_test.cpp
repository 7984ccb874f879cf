// The in-memory answer store behind GET /v1/configs: exact keys, and the nearest neighbour
// within the distance limit under the same answer key (kernel, problem, dtype, device and
// the family's version) only.
#include "server/config_lookup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "workload/matrix_features.h"

namespace ktune {
namespace {

// A feature vector of this version's length whose first entries are `head`.
std::vector<double> features(std::vector<double> head) {
  std::vector<double> v(feature_vector_names().size(), 1.0);
  std::copy(head.begin(), head.end(), v.begin());
  return v;
}

AnswerKey key(const std::string& dtype = "f32", const std::string& problem = "{}", const std::string& device = "dev",
              const std::string& version = "v1") {
  return {"spmm", problem, dtype, device, version};
}

StoredAnswer stored(const std::string& sig, std::vector<double> head, AnswerKey k = key()) {
  return {std::move(k), sig, features(std::move(head)), {{"config_key", sig}}};
}

TEST(ConfigLookup, ExactHitsByFullKey) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("a", {1, 2, 3}, key("f32", R"({"k":32})")));
  ASSERT_NE(lookup.exact(key("f32", R"({"k":32})"), "a"), nullptr);
  EXPECT_EQ(lookup.exact(key("f32", R"({"k":32})"), "a")->answer["config_key"], "a");
  EXPECT_EQ(lookup.exact(key("f64", R"({"k":32})"), "a"), nullptr);
  EXPECT_EQ(lookup.exact(key("f32", R"({"k":128})"), "a"), nullptr) << "another problem";
  EXPECT_EQ(lookup.exact(key("f32", R"({"k":32})", "other"), "a"), nullptr);
  EXPECT_EQ(lookup.exact(key("f32", R"({"k":32})", "dev", "v2"), "a"), nullptr) << "stale templates";
  EXPECT_EQ(lookup.exact(key("f32", R"({"k":32})"), "b"), nullptr);
}

TEST(ConfigLookup, ProblemsOfOneWorkloadDoNotOverwriteEachOther) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("a", {1, 2, 3}, key("f32", R"({"k":32})")));
  lookup.remember(stored("a", {1, 2, 3}, key("f32", R"({"k":128})")));
  EXPECT_EQ(lookup.size(), 2u);
}

TEST(ConfigLookup, RememberReplacesTheAnswerForAKey) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("a", {1, 2, 3}));
  StoredAnswer newer = stored("a", {1, 2, 3});
  newer.answer["config_key"] = "newer";
  lookup.remember(newer);
  EXPECT_EQ(lookup.size(), 1u);
  EXPECT_EQ(lookup.exact(key(), "a")->answer["config_key"], "newer");
}

TEST(ConfigLookup, ANearbyProblemMayAnswerByItsDistance) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("k64", {1, 2, 3}, key("f32", R"({"k":64})")));
  lookup.remember(stored("k8", {1, 2, 3}, key("f32", R"({"k":8})")));
  const auto hit = lookup.nearest(key("f32", R"({"k":80})"), features({1, 2, 3}));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->stored->signature, "k64");
  EXPECT_NEAR(hit->distance, std::log2(81.0) - std::log2(65.0), 1e-12);
  EXPECT_FALSE(lookup.nearest(key("f32", R"({"k":1024})"), features({1, 2, 3}))) << "4 doublings away";
  EXPECT_EQ(problem_distance(R"({"layout":"nn"})", R"({"layout":"nt"})"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(problem_distance(R"({"k":3})", R"({"k":3})"), 0.0);
}

TEST(ConfigLookup, NearestIsTheClosestWithinTheLimit) {
  ConfigLookup lookup(1.0);
  lookup.remember(stored("far", {5, 5, 5}));
  lookup.remember(stored("near", {1, 2, 3.5}));
  lookup.remember(stored("nearer", {1, 2, 3.2}));
  lookup.remember(stored("other-dtype", {1, 2, 3}, key("f64")));
  lookup.remember(stored("other-problem", {1, 2, 3}, key("f32", R"({"k":8})")));
  const auto hit = lookup.nearest(key(), features({1, 2, 3}));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->stored->signature, "nearer");
  EXPECT_GT(hit->distance, 0.0);
  EXPECT_FALSE(lookup.nearest(key(), features({9, 9, 9}))) << "beyond the limit";
  EXPECT_FALSE(lookup.nearest(key(), {1, 2, 3})) << "vectors of another length never match";
}

}  // namespace
}  // namespace ktune
