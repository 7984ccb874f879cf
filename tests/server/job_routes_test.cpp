// GET /v1/jobs and GET /v1/jobs/{id}/candidates: the lists the dashboard draws from, and the
// report rows that lead to their jobs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

json get(KtunedProcess& d, const std::string& path, int expected = 200) {
  auto res = d.client().Get(path);
  EXPECT_TRUE(res) << path;
  EXPECT_EQ(res->status, expected) << path << ": " << res->body;
  return json::parse(res->body);
}

json tune(KtunedProcess& d, int n) {
  const json request = {{"kernel", "spmv"}, {"dtype", "f32"}, {"wait", true}, {"budget", {{"compiles", 6}}},
                        {"workload", {{"generator", "stencil2d"}, {"n", n}}}};
  auto res = d.client().Post("/v1/tune", request.dump(), "application/json");
  EXPECT_EQ(res->status, 200) << res->body;
  return json::parse(res->body);
}

TEST(JobRoutes, AFreshDaemonListsNoJobs) {
  KtunedProcess d(fresh_dir("job-routes-empty"));
  EXPECT_EQ(get(d, "/v1/jobs"), json({{"jobs", json::array()}}));
  EXPECT_EQ(get(d, "/v1/jobs?state=active"), json({{"jobs", json::array()}}));
}

TEST(JobRoutes, ListsNewestFirstByStateAndLimit) {
  KtunedProcess d(fresh_dir("job-routes-list"));
  const std::string first = tune(d, 20)["provenance"]["job"], second = tune(d, 21)["provenance"]["job"];
  const json all = get(d, "/v1/jobs")["jobs"];
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]["id"], second);
  EXPECT_EQ(all[1]["id"], first);
  EXPECT_EQ(all[0]["state"], "done");
  EXPECT_EQ(all[0]["request"]["workload"]["n"], 21);
  EXPECT_FALSE(all[0].contains("best")) << "a list leaves the answers out";
  EXPECT_EQ(all[0]["progress"]["done"], 6);
  const json newest = get(d, "/v1/jobs?state=done&limit=1")["jobs"];
  ASSERT_EQ(newest.size(), 1u);
  EXPECT_EQ(newest[0]["id"], second);
  EXPECT_TRUE(get(d, "/v1/jobs?state=active")["jobs"].empty());
  EXPECT_TRUE(get(d, "/v1/jobs?state=failed")["jobs"].empty());
  for (const char* bad : {"state=finished", "limit=0", "limit=201", "limit=5x"})
    EXPECT_NE(get(d, std::string("/v1/jobs?") + bad, 400)["error"].get<std::string>().find('\''), std::string::npos);
}

TEST(JobRoutes, CandidatesAreWhatTheJobTriedWithTheirPredictions) {
  KtunedProcess d(fresh_dir("job-routes-candidates"));
  const json answer = tune(d, 24);
  const std::string job = answer["provenance"]["job"];
  const json listed = get(d, "/v1/jobs/" + job + "/candidates");
  EXPECT_EQ(listed["job"], job);
  const json& candidates = listed["candidates"];
  ASSERT_EQ(candidates.size(), 6u) << "budget.compiles";
  bool has_answer = false;
  for (const json& c : candidates) {
    EXPECT_TRUE(c["config"].is_object());
    EXPECT_GT(c["predicted_us"].get<double>(), 0);
    EXPECT_TRUE(c["measurement"].is_null()) << "model-only: nothing measured";
    has_answer = has_answer || c["config_key"] == answer["config_key"];
  }
  EXPECT_TRUE(has_answer) << "the answer is one of the candidates";
  EXPECT_NE(get(d, "/v1/jobs/jnosuch/candidates", 404)["error"].get<std::string>().find("jnosuch"), std::string::npos);
}

TEST(JobRoutes, ReportRowsNameTheirJobAndProblem) {
  KtunedProcess d(fresh_dir("job-routes-report"));
  const json answer = tune(d, 22);
  const json rows = get(d, "/v1/report")["results"];
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["job"], answer["provenance"]["job"]);
  EXPECT_EQ(rows[0]["problem"], json::object());
}

}  // namespace
}  // namespace ktune::testing
