// GEMM through ktuned's HTTP API, model-only (no GPU here): a dense kernel's request names no
// workload, its problem is its shape; the second request for a shape is an exact hit at once,
// a lookup takes no signature, a near shape is answered by its nearest stored neighbour, and
// bad shapes, layouts and dtypes are refused with a 4xx before anything is allocated.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

class GemmTune : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { daemon_ = new KtunedProcess(fresh_dir("gemm-tune")); }
  static void TearDownTestSuite() {
    delete daemon_;
    daemon_ = nullptr;
  }
  static httplib::Result tune(const json& request) {
    return daemon_->client().Post("/v1/tune", request.dump(), "application/json");
  }
  static KtunedProcess* daemon_;
};
KtunedProcess* GemmTune::daemon_ = nullptr;

const json kProblem = {{"m", 384}, {"n", 384}, {"k", 16384}, {"layout", "nt"}};

std::string lookup_path(const json& problem) {
  return "/v1/configs?kernel=gemm&dtype=bf16&problem=" + httplib::detail::encode_query_param(problem.dump());
}

TEST_F(GemmTune, AShapeTunesModelOnlyThenHitsExactlyAndLooksUpWithoutASignature) {
  auto first = tune({{"kernel", "gemm"}, {"dtype", "bf16"}, {"problem", kProblem}, {"budget", {{"compiles", 3}}},
                     {"wait", true}});
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  const json answer = json::parse(first->body);
  EXPECT_EQ(answer["family"], "gemm");
  EXPECT_EQ(answer["source"], "model");
  EXPECT_EQ(answer["dtype"], "bf16:f32:f32");
  EXPECT_EQ(answer["problem"]["k"], 16384);
  EXPECT_EQ(answer["problem"]["batch"], 1);
  EXPECT_GT(answer["predicted_us"].get<double>(), 0);

  // Stored: answered at once, without a job, even when not asked to wait.
  auto second = tune({{"kernel", "gemm"}, {"dtype", "bf16"}, {"problem", kProblem}, {"wait", false}});
  ASSERT_TRUE(second);
  ASSERT_EQ(second->status, 200) << second->body;
  const json hit = json::parse(second->body);
  EXPECT_EQ(hit["match"], "exact");
  EXPECT_FALSE(hit.contains("job"));
  EXPECT_EQ(hit["config_key"], answer["config_key"]);

  auto looked = daemon_->client().Get(lookup_path(kProblem));
  ASSERT_TRUE(looked);
  ASSERT_EQ(looked->status, 200) << looked->body;
  EXPECT_EQ(json::parse(looked->body)["match"], "exact");
  EXPECT_EQ(json::parse(looked->body)["config_key"], answer["config_key"]);

  json near = kProblem;
  near["m"] = 400;
  auto nearest = daemon_->client().Get(lookup_path(near));
  ASSERT_TRUE(nearest);
  ASSERT_EQ(nearest->status, 200) << nearest->body;
  EXPECT_EQ(json::parse(nearest->body)["match"], "nearest");
}

// tf32 is GEMM's own precision: stored beside bf16's answer for the same shape, not over it; the
// sparse families do not compute in it.
TEST_F(GemmTune, Tf32TunesAsItsOwnPrecisionAndOtherFamiliesRefuseIt) {
  const json problem = {{"m", 1000}, {"n", 1000}, {"k", 1000}, {"layout", "nt"}};
  std::string keys[2];
  int i = 0;
  for (const char* dtype : {"bf16", "tf32"}) {
    auto res = tune({{"kernel", "gemm"}, {"dtype", dtype}, {"problem", problem}, {"budget", {{"compiles", 3}}},
                     {"wait", true}});
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const json answer = json::parse(res->body);
    EXPECT_EQ(answer["dtype"], std::string(dtype) + ":f32:f32");
    keys[i++] = answer["config_key"].get<std::string>();
  }
  // The model answers tf32 on tensor cores (wgmma or m16n8k8), not f32's FMA.
  EXPECT_EQ(keys[1].find("mma=fma"), std::string::npos) << keys[1];
  EXPECT_NE(keys[1], keys[0]);
  auto looked = daemon_->client().Get("/v1/configs?kernel=gemm&dtype=tf32:f32:f32&problem=" +
                                      httplib::detail::encode_query_param(problem.dump()));
  ASSERT_TRUE(looked);
  ASSERT_EQ(looked->status, 200) << looked->body;
  EXPECT_EQ(json::parse(looked->body)["config_key"], keys[1]);
  auto sparse = tune({{"kernel", "spmv"}, {"dtype", "tf32"}, {"workload", {{"generator", "uniform"}}}});
  ASSERT_TRUE(sparse);
  EXPECT_EQ(sparse->status, 400) << sparse->body;
  EXPECT_NE(sparse->body.find("tf32"), std::string::npos) << sparse->body;
}

TEST_F(GemmTune, BadShapesLayoutsAndDtypesAreRefusedBeforeAllocation) {
  struct Bad {
    json problem;
    std::string dtype;
    int status;
  };
  const int64_t big = int64_t{1} << 20;
  for (const Bad& bad : {Bad{{{"m", 0}, {"n", 8}, {"k", 8}}, "f32", 400}, Bad{{{"m", -4}}, "f32", 400},
                         Bad{{{"m", 8}, {"layout", "nx"}}, "f32", 400}, Bad{{{"m", 8}}, "i32", 400},
                         Bad{{{"m", 8}, {"rows", 8}}, "f32", 400},
                         Bad{{{"m", big}, {"n", big}, {"k", 8}}, "f32", 413}}) {
    auto res = tune({{"kernel", "gemm"}, {"dtype", bad.dtype}, {"problem", bad.problem}, {"wait", true}});
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, bad.status) << bad.problem.dump() << " " << bad.dtype << ": " << res->body;
    EXPECT_NE(res->body.find("error"), std::string::npos) << res->body;
  }
  auto with_workload = tune({{"kernel", "gemm"}, {"problem", {{"m", 8}}}, {"workload", {{"generator", "uniform"}}}});
  ASSERT_TRUE(with_workload);
  EXPECT_EQ(with_workload->status, 400) << with_workload->body;
}

}  // namespace
}  // namespace ktune::testing
