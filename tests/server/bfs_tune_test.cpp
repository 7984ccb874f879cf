// BFS tuned through ktuned's HTTP API, model-only: a generated graph and a named source get an
// answer whose plan loops, under the problem it was asked (defaults filled); a source beyond
// the graph is a 400 naming its vertex count, and so is a problem the schema refuses.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

class BfsTune : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new KtunedProcess(fresh_dir("bfs-tune")); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  // R-MAT of 2^9 vertices.
  static httplib::Result tune(const json& problem) {
    const json request = {{"kernel", "bfs"},
                          {"workload", {{"generator", "rmat"}, {"scale", 9}, {"edge_factor", 4}, {"seed", 3}}},
                          {"problem", problem},
                          {"budget", {{"compiles", 2}}},
                          {"wait", true}};
    return daemon_->client().Post("/v1/tune", request.dump(), "application/json");
  }
  static KtunedProcess* daemon_;
};
KtunedProcess* BfsTune::daemon_ = nullptr;

TEST_F(BfsTune, AGeneratedGraphAndASourceGetAnAnswer) {
  auto res = tune({{"sources", {0}}});
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const json answer = json::parse(res->body);
  EXPECT_EQ(answer["family"], "bfs");
  EXPECT_EQ(answer["source"], "model");
  EXPECT_EQ(answer["dtype"], "i32");
  EXPECT_EQ(answer["problem"], (json{{"parents", false}, {"sources", {0}}}));
  EXPECT_GT(answer["predicted_us"].get<double>(), 0);
  bool starts = false;
  for (const json& launch : answer["launch"]) starts = starts || launch["entry"] == "bfs_start";
  EXPECT_TRUE(starts) << answer["launch"].dump();
}

TEST_F(BfsTune, ASourceOutsideTheGraphIsRefused) {
  auto res = tune({{"sources", {0, 512}}});
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400) << res->body;
  EXPECT_NE(res->body.find("512 vertices"), std::string::npos) << res->body;
  auto negative = tune({{"sources", {-3}}});
  ASSERT_TRUE(negative);
  EXPECT_EQ(negative->status, 400) << negative->body;
  EXPECT_NE(negative->body.find("sources"), std::string::npos) << negative->body;
}

}  // namespace
}  // namespace ktune::testing
