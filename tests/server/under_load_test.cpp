// The daemon stays answerable under load: waiting clients cannot take every HTTP thread, and a
// burst of connections is queued by the kernel, not reset.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "ktuned_process.h"

namespace ktune::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A tune long enough (a second or more) that a queue of them keeps waiting clients waiting.
json uniform_tune(int seed, bool wait) {
  json r = {{"kernel", "spmv"},
            {"workload", {{"generator", "uniform"}, {"rows", 200000}, {"cols", 200000}, {"per_row", 8}, {"seed", seed}}},
            {"budget", {{"compiles", 16}}}};
  if (wait) {
    r["wait"] = true;
    r["wait_seconds"] = 90;
  }
  return r;
}

// The slowest of `probes` answers of GET `path`, each on a fresh connection.
double slowest_answer_s(const KtunedProcess& d, const std::string& path, int probes) {
  double slowest = 0;
  for (int i = 0; i < probes; ++i) {
    httplib::Client c("127.0.0.1", d.port());
    const auto start = Clock::now();
    auto res = c.Get(path.c_str());
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_TRUE(res && res->status == 200) << path << ": " << (res ? res->body : httplib::to_string(res.error()));
    slowest = std::max(slowest, s);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return slowest;
}

TEST(UnderLoad, WaitingClientsWhoHangUpDoNotLockTheServer) {
  KtunedProcess d(fresh_dir("load-waiters"));
  // 34 clients wait for tunes with a 90 s wait and hang up after 3 s.
  std::vector<std::future<void>> clients;
  for (int i = 0; i < 34; ++i)
    clients.push_back(std::async(std::launch::async, [&d, i] {
      httplib::Client c("127.0.0.1", d.port());
      c.set_read_timeout(3, 0);
      c.Post("/v1/tune", uniform_tune(2000 + i, true).dump(), "application/json");
    }));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_LT(slowest_answer_s(d, "/healthz", 10), 0.1);
  EXPECT_LT(slowest_answer_s(d, "/v1/kernels", 5), 0.5);
  EXPECT_LT(slowest_answer_s(d, "/metrics", 5), 0.5);
  for (auto& c : clients) c.get();
  EXPECT_LT(slowest_answer_s(d, "/healthz", 5), 0.1);
}

TEST(UnderLoad, HealthAnswersWithin100msWhile64TunesRunAnd100ClientsWait) {
  KtunedProcess d(fresh_dir("load-64"));
  std::vector<std::string> jobs;
  for (int i = 0; i < 64; ++i) {
    auto res = d.client().Post("/v1/tune", uniform_tune(3000 + i, false).dump(), "application/json");
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 202) << res->body;
    jobs.push_back(json::parse(res->body)["job"]);
  }
  std::atomic<int> answered{0};
  std::vector<std::future<void>> waiters;
  for (int i = 0; i < 100; ++i)
    waiters.push_back(std::async(std::launch::async, [&d, &answered, i] {
      httplib::Client c("127.0.0.1", d.port());
      c.set_read_timeout(120, 0);
      // Joins a queued job (single flight) and waits for it.
      auto res = c.Post("/v1/tune", uniform_tune(3000 + i % 64, true).dump(), "application/json");
      // 409 once the test cancels the job it joined.
      if (res && (res->status == 200 || res->status == 202 || res->status == 409)) ++answered;
    }));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_LT(slowest_answer_s(d, "/healthz", 20), 0.1);
  for (const std::string& id : jobs) d.client().Delete(("/v1/jobs/" + id).c_str());
  for (auto& w : waiters) w.get();
  EXPECT_EQ(answered.load(), 100) << "every waiting client got an answer";
}

TEST(UnderLoad, ABurstOfConnectionsIsServedWithoutResets) {
  KtunedProcess d(fresh_dir("load-burst"));
  std::atomic<int> ok{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> burst;
  for (int i = 0; i < 200; ++i)
    burst.emplace_back([&] {
      while (!go) std::this_thread::yield();
      httplib::Client c("127.0.0.1", d.port());
      c.set_connection_timeout(5, 0);
      auto res = c.Get("/healthz");
      if (res && res->status == 200) ++ok;
    });
  const auto start = Clock::now();
  go = true;
  for (auto& t : burst) t.join();
  EXPECT_EQ(ok.load(), 200);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3)) << "no connection waited for a SYN retry";
}

}  // namespace
}  // namespace ktune::testing
