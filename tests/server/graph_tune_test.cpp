// Connected components and PageRank tuned through ktuned's HTTP API on a generated R-MAT
// graph, model-only: the answer names the family, its problem in canonical form (PageRank's
// damping and tolerance as asked, defaults filled) and a plan that loops; a problem out of
// range is refused with a 4xx naming the field before anything is loaded.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

class GraphTune : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new KtunedProcess(fresh_dir("graph-tune")); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static json tune(const std::string& kernel, const std::string& dtype, const json& problem, int* status) {
    json request = {{"kernel", kernel},
                    {"dtype", dtype},
                    {"workload", {{"generator", "rmat"}, {"scale", 9}, {"edge_factor", 4}, {"seed", 3}}},
                    {"budget", {{"compiles", 3}}},
                    {"wait", true}};
    if (!problem.is_null()) request["problem"] = problem;
    auto res = daemon_->client().Post("/v1/tune", request.dump(), "application/json");
    if (!res) return json();
    *status = res->status;
    return json::parse(res->body, nullptr, false);
  }
  static KtunedProcess* daemon_;
};
KtunedProcess* GraphTune::daemon_ = nullptr;

TEST_F(GraphTune, ConnectedComponentsAnswersWithI32Labels) {
  int status = 0;
  const json answer = tune("cc", "i32", nullptr, &status);
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["family"], "cc");
  EXPECT_EQ(answer["source"], "model");
  EXPECT_EQ(answer["dtype"], "i32");
  EXPECT_EQ(answer["problem"], json::object());
  EXPECT_GT(answer["predicted_us"].get<double>(), 0);
  EXPECT_FALSE(answer["launch"].empty());
}

TEST_F(GraphTune, PagerankAnswersUnderTheProblemItWasAsked) {
  int status = 0;
  const json answer = tune("pagerank", "f32", {{"damping", 0.9}, {"tolerance", 1e-5}}, &status);
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["family"], "pagerank");
  EXPECT_EQ(answer["source"], "model");
  EXPECT_EQ(answer["problem"], (json{{"damping", 0.9}, {"max_iterations", 100}, {"tolerance", 1e-5}}));
  EXPECT_GT(answer["predicted_us"].get<double>(), 0);
}

TEST_F(GraphTune, AProblemOutOfRangeIsRefusedNamingTheField) {
  for (const auto& [problem, field] : std::vector<std::pair<json, std::string>>{
           {{{"damping", 1.5}}, "damping"}, {{{"tolerance", -1}}, "tolerance"}, {{{"max_iterations", 0}}, "max_iterations"}}) {
    int status = 0;
    const json answer = tune("pagerank", "f64", problem, &status);
    EXPECT_GE(status, 400) << problem.dump();
    EXPECT_LT(status, 500) << problem.dump();
    EXPECT_NE(answer.dump().find(field), std::string::npos) << answer.dump();
  }
  int status = 0;
  const json answer = tune("cc", "f32", nullptr, &status);
  EXPECT_EQ(status, 400) << answer.dump();
  EXPECT_NE(answer.dump().find("i32"), std::string::npos) << answer.dump();
}

}  // namespace
}  // namespace ktune::testing
