// Jobs over HTTP: asynchronous tunes, single flight, cancellation, a clean SIGTERM, and
// resumption after kill -9 with nothing stored lost.
#include <gtest/gtest.h>

#include <future>
#include <nlohmann/json.hpp>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;

json post_json(KtunedProcess& d, const json& body, int expected) {
  auto res = d.client().Post("/v1/tune", body.dump(), "application/json");
  EXPECT_TRUE(res);
  EXPECT_EQ(res->status, expected) << res->body;
  return json::parse(res->body);
}

json job(KtunedProcess& d, const std::string& id) {
  auto res = d.client().Get("/v1/jobs/" + id);
  EXPECT_TRUE(res);
  EXPECT_EQ(res->status, 200) << res->body;
  return json::parse(res->body);
}

// Polls until `pred(job)` holds or the deadline passes.
template <typename Pred>
json poll(KtunedProcess& d, const std::string& id, Pred pred, int seconds = 300) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  json j;
  do {
    j = job(d, id);
    if (pred(j)) return j;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (std::chrono::steady_clock::now() < deadline);
  ADD_FAILURE() << "job did not get there in time: " << j.dump();
  return j;
}

// A model-only tune that compiles many configurations: long enough to interrupt.
json long_tune(int n) {
  return {{"kernel", "spmv"}, {"dtype", "f64"},
          {"workload", {{"generator", "uniform"}, {"rows", n}, {"cols", n}, {"per_row", 5}, {"seed", 3}}},
          {"budget", {{"compiles", 40}}}};
}

int metric(KtunedProcess& d, const std::string& name) {
  auto res = d.client().Get("/metrics");
  const std::string& body = res->body;
  const size_t at = body.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stoi(body.substr(at + name.size() + 2));
}

TEST(JobsTest, AsyncTuneAndSingleFlight) {
  KtunedProcess d(fresh_dir("jobs-async"));
  const json request = long_tune(3001);
  std::vector<std::future<json>> posts;
  for (int i = 0; i < 4; ++i) posts.push_back(std::async(std::launch::async, [&] { return post_json(d, request, 202); }));
  std::set<std::string> ids;
  for (auto& p : posts) ids.insert(p.get()["job"].get<std::string>());
  EXPECT_EQ(ids.size(), 1u) << "identical concurrent requests share one job";
  const json done = poll(d, *ids.begin(), [](const json& j) { return j["state"] == "done"; });
  EXPECT_EQ(done["progress"]["done"], done["progress"]["planned"]);
  EXPECT_EQ(done["best"]["source"], "model");
  const json other = post_json(d, long_tune(3002), 202);
  EXPECT_NE(other["job"], *ids.begin());
  EXPECT_EQ(d.stop(SIGTERM), 0) << "SIGTERM shuts down cleanly";
}

TEST(JobsTest, ProgressShowsTheBestSoFarAndAnEta) {
  KtunedProcess d(fresh_dir("jobs-progress"));
  json request = long_tune(3003);
  request["target_speedup"] = 1.5;
  request["budget"]["patience"] = 8;
  const std::string id = post_json(d, request, 202)["job"];
  const json running = poll(d, id, [](const json& j) {
    return j["progress"].contains("best_us") && j["progress"]["done"].get<int>() >= 1;
  });
  const json& p = running["progress"];
  EXPECT_GT(p["planned"].get<int>(), 0);
  EXPECT_TRUE(p["best_us"].is_number()) << p.dump();
  EXPECT_TRUE(p["best_config"].is_string()) << p.dump();
  EXPECT_TRUE(p["eta_s"].is_number()) << p.dump();
  EXPECT_TRUE(p["elapsed_s"].is_number()) << p.dump();
  EXPECT_TRUE(p["phase"].is_string()) << p.dump();
  const json done = poll(d, id, [](const json& j) { return j["state"] == "done"; });
  EXPECT_EQ(done["progress"]["phase"], "done");
  EXPECT_EQ(done["progress"]["eta_s"], 0.0);
  EXPECT_EQ(done["progress"]["done"], done["progress"]["planned"]);
  EXPECT_EQ(done["progress"]["best_config"], done["best"]["config_key"]) << done.dump();

  json bad = long_tune(3004);
  bad["target_speedup"] = "fast";
  EXPECT_TRUE(post_json(d, bad, 400).contains("error"));
}

// Cancels `id` once `ready(job)` holds and returns the seconds until the job manager's
// thread is free again: a job queued behind it starts running.
template <typename Ready>
double cancel_latency(KtunedProcess& d, const std::string& id, Ready ready, int behind_n) {
  poll(d, id, ready);
  const std::string behind = post_json(d, long_tune(behind_n), 202)["job"];
  const auto start = std::chrono::steady_clock::now();
  auto res = d.client().Delete("/v1/jobs/" + id);
  EXPECT_TRUE(res);
  EXPECT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(json::parse(res->body)["state"], "cancelled") << "stored at once";
  EXPECT_EQ(job(d, id)["state"], "cancelled");
  poll(d, behind, [](const json& j) { return j["state"] != "queued"; }, 30);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto again = d.client().Delete("/v1/jobs/" + id);
  EXPECT_TRUE(again);
  EXPECT_EQ(again->status, 409) << "already cancelled";
  d.client().Delete("/v1/jobs/" + behind);
  return seconds;
}

TEST(JobsTest, CancelReachesEveryPhaseWithinASecond) {
  KtunedProcess d(fresh_dir("jobs-cancel"));
  // Preparation: generating, reading and measuring a large matrix, then the first model's estimates.
  const json big = {{"kernel", "spmv"},
                    {"workload", {{"generator", "rmat"}, {"scale", 19}, {"edge_factor", 15}, {"seed", 7}}},
                    {"budget", {{"compiles", 40}}}};
  const std::string preparing = post_json(d, big, 202)["job"];
  EXPECT_LT(cancel_latency(d, preparing, [](const json& j) { return j["state"] == "running"; }, 4002), 1.0);
  // Compilation and emulation of the candidates.
  const std::string compiling = post_json(d, long_tune(4001), 202)["job"];
  const double during_model = cancel_latency(
      d, compiling, [](const json& j) { return j["progress"]["done"].get<int>() >= 1; }, 4003);
  EXPECT_LT(during_model, 1.0);
  const json cancelled = job(d, compiling);
  EXPECT_LT(cancelled["progress"]["done"].get<int>(), cancelled["progress"]["planned"].get<int>());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(job(d, compiling)["progress"], cancelled["progress"]) << "a cancelled job does no more work";
}

TEST(JobsTest, SigtermEndsTheDaemonWithinSecondsWhateverRuns) {
  KtunedProcess d(fresh_dir("jobs-sigterm"));
  const json big = {{"kernel", "spmv"},
                    {"workload", {{"generator", "rmat"}, {"scale", 19}, {"edge_factor", 15}, {"seed", 8}}},
                    {"budget", {{"compiles", 40}}}};
  const std::string id = post_json(d, big, 202)["job"];
  poll(d, id, [](const json& j) { return j["state"] == "running"; });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(d.stop(SIGTERM), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(JobsTest, KillNineThenRestartResumesAndLosesNothing) {
  const auto dir = fresh_dir("jobs-kill");
  std::string finished_signature, interrupted;
  {
    KtunedProcess d(dir);
    const json first = post_json(d,
                                 {{"kernel", "spmv"}, {"dtype", "f32"},
                                  {"workload", {{"generator", "stencil2d"}, {"n", 40}}},
                                  {"budget", {{"compiles", 2}}}, {"wait", true}},
                                 200);
    finished_signature = first["signature"];
    interrupted = post_json(d, long_tune(5001), 202)["job"];
    poll(d, interrupted, [](const json& j) { return j["progress"]["done"].get<int>() >= 3; });
    EXPECT_EQ(d.stop(SIGKILL), -SIGKILL);
  }
  KtunedProcess d(dir);
  const json resumed = poll(d, interrupted, [](const json& j) { return j["state"] == "done"; });
  EXPECT_EQ(resumed["progress"]["done"], resumed["progress"]["planned"]);
  EXPECT_LT(metric(d, "ktune_compiles"), resumed["progress"]["planned"].get<int>())
      << "kernels compiled before the kill come from the stored compile cache";
  auto hit = d.client().Get("/v1/configs?kernel=spmv&dtype=f32&signature=" + finished_signature);
  ASSERT_TRUE(hit);
  EXPECT_EQ(json::parse(hit->body)["distance"], 0.0) << "the earlier result survived: " << hit->body;
  EXPECT_NE(json::parse(hit->body)["match"], "default");
}

}  // namespace
}  // namespace ktune::testing
