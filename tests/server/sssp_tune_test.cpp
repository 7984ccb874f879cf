// SSSP tuned through ktuned's HTTP API, model-only: a generated graph with generated weights
// and a named source gets an answer whose plan starts each source and loops, under the problem
// it was asked (defaults filled); a source beyond the graph and file weights the graph cannot
// give under i32 are 400s.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

class SsspTune : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new KtunedProcess(fresh_dir("sssp-tune")); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  // R-MAT of 2^9 vertices.
  static httplib::Result tune(const json& problem, const json& dtype = nullptr) {
    json request = {{"kernel", "sssp"},
                    {"workload", {{"generator", "rmat"}, {"scale", 9}, {"edge_factor", 4}, {"seed", 3}}},
                    {"problem", problem},
                    {"budget", {{"compiles", 2}}},
                    {"wait", true}};
    if (!dtype.is_null()) request["dtype"] = dtype;
    return daemon_->client().Post("/v1/tune", request.dump(), "application/json");
  }
  static KtunedProcess* daemon_;
};
KtunedProcess* SsspTune::daemon_ = nullptr;

TEST_F(SsspTune, AGeneratedGraphAndASourceGetAnAnswer) {
  auto res = tune({{"sources", {0}}});
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json answer = json::parse(res->body);
  EXPECT_EQ(answer["family"], "sssp");
  EXPECT_EQ(answer["source"], "model");
  EXPECT_EQ(answer["dtype"], "i32");
  EXPECT_EQ(answer["problem"], (json{{"max_weight", 64}, {"sources", {0}}, {"weights", "generated"}}));
  EXPECT_GT(answer["predicted_us"].get<double>(), 0);
  bool starts = false;
  for (const json& launch : answer["launch"]) starts = starts || launch["entry"] == "sssp_start";
  EXPECT_TRUE(starts) << answer["launch"].dump();
}

TEST_F(SsspTune, FileWeightsInFloatGetAnAnswer) {
  auto res = tune({{"sources", {0}}, {"weights", "file"}}, "f32");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(json::parse(res->body)["dtype"], "f32");
}

TEST_F(SsspTune, ASourceOutsideTheGraphIsRefused) {
  auto res = tune({{"sources", {0, 512}}});
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400) << res->body;
  EXPECT_NE(res->body.find("512 vertices"), std::string::npos) << res->body;
  auto weights = tune({{"weights", "heavy"}});
  ASSERT_TRUE(weights);
  EXPECT_EQ(weights->status, 400) << weights->body;
  EXPECT_NE(weights->body.find("weights"), std::string::npos) << weights->body;
}

}  // namespace
}  // namespace ktune::testing
